import HTTPTypes
import Hummingbird
import MyworkoutCore
import MyworkoutImages
import MyworkoutWire
import NIOCore

#if canImport(Glibc)
  import Glibc
#endif

/// The image list in Lorem Picsum's `/v2/list` fields and the image files (`/id/{id}`).
extension Backend {
  func addImageRoutes(to router: Router<ServerContext>) {
    router.get("v2/list") { request, _ in
      let base = "http://" + (request.head.authority ?? "127.0.0.1")
      let images = try await self.listImages()
      return JSONResponse.make(
        images.map { image in
          let url = base + "/id/" + Percent.encode(image.id)
          return PicsumImage(
            id: image.id, author: image.caption, width: image.size?.width ?? 0,
            height: image.size?.height ?? 0, url: url, downloadURL: url)
        })
    }
    router.get("id/:id") { _, context in
      let id = try context.decodedParameter("id")
      // Only names the list gives: never a path the request makes up.
      guard let image = try await self.listImages().first(where: { $0.id == id }),
        case .file(let path) = image.location
      else { throw APIError.notFound }
      let bytes: [UInt8]
      do {
        bytes = try FileBytes.read(path, limit: ImageDecoder.maxFileBytes)
      } catch {
        throw APIError(.internalServerError, error: "server_error", description: "\(error)")
      }
      let type = id.lowercased().hasSuffix(".png") ? "image/png" : "image/jpeg"
      return Response(
        status: .ok, headers: [.contentType: type],
        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
  }

  /// Said at the start when the image folder cannot be opened (only opened: listing reads
  /// every image's header, which a large folder would make the server's first line wait for).
  func imagesNotice() -> String? {
    guard let folder = opendir(imagesDirectory) else {
      return "Images could not be listed: \(imagesDirectory): \(String(cString: strerror(errno)))"
        + "; GET /v2/list answers 500 until it can be read"
    }
    closedir(folder)
    return nil
  }

  private func listImages() async throws -> [ImageInfo] {
    do {
      return try await DirectoryImageService(
        directory: imagesDirectory, clock: ContinuousClock(), latency: .zero
      ).listImages()
    } catch let error as ImageServiceError {
      throw APIError(.internalServerError, error: "server_error", description: error.description)
    }
  }
}
