import Hummingbird
import MyworkoutWire
import NIOCore

/// The request context: the 1 MiB body limit (SPEC §15) and the peer's address for the
/// per-address login limit.
package struct ServerContext: RequestContext {
  package var coreContext: CoreRequestContextStorage
  /// The peer's IP address ("local" when there is none, as in the router test framework).
  package let remoteAddress: String

  package init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    remoteAddress = source.channel.remoteAddress?.ipAddress ?? "local"
  }

  package var maxUploadSize: Int { ServerLimits.bodyBytes }
}

package enum ServerLimits {
  /// Every request body: 1 MiB.
  package static let bodyBytes = 1 << 20
}

extension ServerContext {
  /// The path parameter `name`, percent-decoded: Hummingbird hands a parameter over as the URL
  /// has it (`my%20aurora%20%C3%A9.png`), while ids are compared, filed and named in JSON
  /// decoded (`my aurora é.png`). Every route with a parameter reads it here, so that a URL
  /// the server gives (`Percent.encode`) names what it was made from. A malformed escape, or
  /// bytes that are not UTF-8, name nothing: 404.
  package func decodedParameter(_ name: String) throws(APIError) -> String {
    guard let raw = parameters.get(name), let decoded = Percent.decode(raw) else {
      throw APIError.notFound
    }
    return decoded
  }
}
