import MyworkoutWire

/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (or `postgresql://`), as `--database` or
/// `MYWORKOUT_DATABASE_URL` give it. The password may instead come from `PGPASSWORD`. Nothing
/// this type prints holds the password: `description` is the URL without it.
package struct DatabaseURL: Sendable, Equatable, CustomStringConvertible {
  package var user: String
  package var password: String?
  package var host: String
  package var port: Int
  package var database: String

  package struct Invalid: Error, Sendable, CustomStringConvertible {
    package var description: String
  }

  /// Parses `text`; `fallbackPassword` (PGPASSWORD) when the URL has none. The error names
  /// what is wrong, never the text itself (it may hold a password).
  package init(_ text: String, fallbackPassword: String? = nil) throws(Invalid) {
    let usage = "use postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
    var rest = Substring(text)
    if rest.hasPrefix("postgres://") {
      rest = rest.dropFirst("postgres://".count)
    } else if rest.hasPrefix("postgresql://") {
      rest = rest.dropFirst("postgresql://".count)
    } else {
      throw Invalid(description: "the database URL must start with postgres://; \(usage)")
    }
    if let query = rest.firstIndex(of: "?") { rest = rest[..<query] }
    guard let at = rest.lastIndex(of: "@") else {
      throw Invalid(description: "the database URL has no user; \(usage)")
    }
    let credentials = rest[..<at]
    let location = rest[rest.index(after: at)...]
    let userPart: Substring
    var password: String?
    if let colon = credentials.firstIndex(of: ":") {
      userPart = credentials[..<colon]
      password = Self.decode(String(credentials[credentials.index(after: colon)...]))
      guard password != nil else {
        throw Invalid(description: "the database URL's password is not valid percent-encoding")
      }
    } else {
      userPart = credentials
    }
    guard let user = Self.decode(String(userPart)), !user.isEmpty else {
      throw Invalid(description: "the database URL has no user; \(usage)")
    }
    guard let slash = location.firstIndex(of: "/") else {
      throw Invalid(description: "the database URL names no database; \(usage)")
    }
    let hostPort = location[..<slash]
    guard let database = Self.decode(String(location[location.index(after: slash)...])),
      !database.isEmpty, !database.contains("/")
    else { throw Invalid(description: "the database URL names no database; \(usage)") }
    var host = String(hostPort)
    var port = 5432
    if hostPort.hasPrefix("[") {
      guard let close = hostPort.firstIndex(of: "]") else {
        throw Invalid(description: "the database URL's host is not valid; \(usage)")
      }
      host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
      let after = hostPort[hostPort.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else {
          throw Invalid(description: "the database URL's port is not a number; \(usage)")
        }
        port = number
      }
    } else if let colon = hostPort.lastIndex(of: ":") {
      host = String(hostPort[..<colon])
      guard let number = Int(hostPort[hostPort.index(after: colon)...]) else {
        throw Invalid(description: "the database URL's port is not a number; \(usage)")
      }
      port = number
    }
    guard !host.isEmpty else {
      throw Invalid(description: "the database URL has no host; \(usage)")
    }
    guard (1...65535).contains(port) else {
      throw Invalid(description: "the database URL's port must be 1 to 65535")
    }
    self.user = user
    self.password = password ?? fallbackPassword
    self.host = host
    self.port = port
    self.database = database
  }

  /// `%XX` sequences decoded; nil when one is malformed or the bytes are not UTF-8.
  static func decode(_ text: String) -> String? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next(), let low = iterator.next(),
        let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
      else { return nil }
      bytes.append(value)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  /// The URL without its password.
  package var description: String {
    let host = self.host.contains(":") ? "[\(self.host)]" : self.host
    return "postgres://\(Percent.encode(user))@\(host):\(port)/\(Percent.encode(database))"
  }
}
