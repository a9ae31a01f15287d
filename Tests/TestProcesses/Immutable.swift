/// Sets or clears the immutable flag of `path` with `chattr` (e2fsprogs); whether that worked.
/// An immutable file cannot be opened for writing even by root, whom file modes do not stop
/// (the tests run as root): it stands for a file the app may only read. Needs ext2/3/4.
public func setImmutable(_ path: String, _ on: Bool) -> Bool {
  guard
    let child = try? ChildProcess.spawn(["chattr", on ? "+i" : "-i", path], searchPath: true)
  else { return false }
  return child.waitBlocking() == .exited(0)
}
