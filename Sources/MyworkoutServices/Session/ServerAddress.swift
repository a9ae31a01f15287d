import MyworkoutCore

/// Where `--server` may point (SPEC §15): `http(s)://host[:port]`; plain `http://` only to a
/// loopback host unless `--insecure-http`.
package enum ServerAddress {
  package static func check(_ text: String, insecureHTTP: Bool) throws(ServerAddressError) -> String
  {
    let trimmed = text.trimmingWhitespace()
    let lower = trimmed.lowercased()
    let isHTTPS = lower.hasPrefix("https://")
    guard isHTTPS || lower.hasPrefix("http://") else {
      throw ServerAddressError(
        message: "--server: '\(text)' is not an http:// or https:// URL.")
    }
    let rest = trimmed.dropFirst(isHTTPS ? 8 : 7)
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard rest.dropFirst(authority.count).allSatisfy({ $0 == "/" }) else {
      throw ServerAddressError(
        message: "--server: give the server's base URL only, like http://127.0.0.1:8080.")
    }
    guard !authority.isEmpty, !authority.contains("@") else {
      throw ServerAddressError(message: "--server: '\(text)' has no host.")
    }
    let host = Self.host(of: authority)
    if !isHTTPS, !insecureHTTP, !isLoopback(host) {
      throw ServerAddressError(
        message: "--server: plain http:// to \(host) would send passwords unencrypted; "
          + "use https://, or pass --insecure-http.")
    }
    return String(trimmed.prefix((isHTTPS ? 8 : 7) + authority.count))
  }

  static func host(of authority: Substring) -> String {
    if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
      return String(authority[authority.index(after: authority.startIndex)..<end])
    }
    return String(authority.prefix { $0 != ":" })
  }

  package static func isLoopback(_ host: String) -> Bool {
    let host = host.lowercased()
    if host == "localhost" || host == "::1" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
  }
}

package struct ServerAddressError: Error, Equatable, Sendable, CustomStringConvertible {
  package let message: String
  package var description: String { message }
}
