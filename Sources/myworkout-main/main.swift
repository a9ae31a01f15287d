// Parses the command line and runs the app; the app's code is the `myworkout` module
// (Sources/myworkout). This binary carries no networking code: remote mode is
// `myworkout-remote`, which it execs when asked for (SPEC §15, §16).
import myworkout

MyworkoutEntry.run(arguments: Array(CommandLine.arguments.dropFirst()))
