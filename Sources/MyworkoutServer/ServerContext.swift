import Hummingbird
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
