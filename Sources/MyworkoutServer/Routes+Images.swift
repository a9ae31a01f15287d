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
      let base = self.base(request)
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
        // Not through a link: it went between the list and the read, or was put there.
        bytes = try FileBytes.read(path, limit: ImageDecoder.maxFileBytes, followingLinks: false)
      } catch {
        // Gone, or no longer a plain file: not there. The reason, with the server's path, goes
        // to the log only.
        throw APIError(.notFound, error: "not_found", logged: "image \(id): \(error)")
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

  /// The plain image files of the folder: a symbolic link in it is neither listed nor served
  /// (the folder is served to anyone; a walk-through's link to `/etc/hostname` was).
  private func listImages() async throws -> [ImageInfo] {
    do {
      return try await DirectoryImageService(
        directory: imagesDirectory, clock: ContinuousClock(), latency: .zero
      ).listImages().filter { image in
        guard case .file(let path) = image.location else { return true }
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
      }
    } catch let error as ImageServiceError {
      throw APIError(.internalServerError, error: "server_error", description: error.description)
    }
  }
}
