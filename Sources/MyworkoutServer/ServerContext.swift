import Hummingbird
import MyworkoutWire
import NIOCore

/// The request context: the 1 MiB body limit (SPEC §15) and the peer's address for the
/// per-address login limit.
package struct ServerContext: RequestContext {
  package var coreContext: CoreRequestContextStorage
  /// The peer's IP address ("local" when there is none, as in the router test framework).
  package let remoteAddress: String
  /// The connection's event loop (a video's body waits for it to take each chunk).
  package let eventLoop: any EventLoop

  package init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    remoteAddress = source.channel.remoteAddress?.ipAddress ?? "local"
    eventLoop = source.channel.eventLoop
  }

  package var maxUploadSize: Int { ServerLimits.bodyBytes }
}

package enum ServerLimits {
  /// Every request body: 1 MiB.
  package static let bodyBytes = 1 << 20
  /// The account routes anyone may call (sign-up, login, lookup, token): their bodies are a
  /// few short fields, and up to 1 MiB each let unfinished bodies hold the server's memory
  /// (a walk-through's 1,000 connections held 1.3 GB).
  package static let accountBodyBytes = 16 << 10
}

extension ServerContext {
  /// The path parameter `name`, percent-decoded: Hummingbird hands a parameter over as the URL
  /// has it (`my%20aurora%20%C3%A9.png`), while ids are compared, filed and named in JSON
  /// decoded (`my aurora é.png`). Every route with a parameter reads it here, so that a URL
  /// the server gives (`Percent.encode`) names what it was made from. Leniently, as before
  /// parameters were decoded: a `%` that starts no escape is itself (`/id/50%.png`, typed by
  /// hand, names `50%.png`), and escapes whose bytes are not UTF-8 leave the parameter as it
  /// came. `%00` stays as it is (`JSONErrorMiddleware` refuses it before any route anyway).
  package func decodedParameter(_ name: String) throws(APIError) -> String {
    guard let raw = parameters.get(name) else { throw APIError.notFound }
    return Percent.decodeEach(raw, except: 0)
  }
}
