/// Why a list of images could not be had.
package enum ImageServiceError: Error, Hashable, Sendable, CustomStringConvertible {
  case cannotList(String)

  package var description: String {
    switch self {
    case .cannotList(let reason): "Images could not be listed: \(reason)"
    }
  }
}
