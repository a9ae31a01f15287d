import MyworkoutCore
import MyworkoutImages
import MyworkoutServices
import MyworkoutWire

/// The images as a client of myworkout-server: the list in Lorem Picsum's `/v2/list` fields,
/// captioned with the author; the bytes from each `download_url` (on the same server only).
package struct RemoteImageService: ImageService {
  let server: RemoteServer

  package init(server: RemoteServer) {
    self.server = server
  }

  package func listImages() async throws -> [ImageInfo] {
    let list: [PicsumImage]
    do {
      let answer = try await server.send(.GET, "/v2/list")
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      list = try answer.decode([PicsumImage].self)
    } catch let error as ServiceError {
      throw ImageServiceError.cannotList(error.message)
    }
    return list.map { image in
      ImageInfo(
        id: image.id, caption: image.author, location: .url(image.downloadURL),
        size: image.width > 0 && image.height > 0
          ? PixelSize(width: image.width, height: image.height) : nil)
    }
  }

  package func bytes(of image: ImageInfo) async throws -> [UInt8] {
    guard case .url(let url) = image.location else {
      throw ImageError.unreadable("not a server image: \(image.id)")
    }
    // The list may name any URL; only this server's are fetched.
    let path =
      url.hasPrefix(server.baseURL + "/") ? String(url.dropFirst(server.baseURL.count)) : nil
    guard let path else { throw ImageError.unreadable("not on this server: \(url)") }
    do {
      let answer = try await server.send(.GET, path, limit: ImageDecoder.maxFileBytes)
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      return [UInt8](answer.body)
    } catch let error as ServiceError {
      throw ImageError.unreadable(error.message)
    }
  }
}
