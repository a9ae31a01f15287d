import MyworkoutCore
import MyworkoutImages
import MyworkoutRemote
import MyworkoutServer
import MyworkoutServices
import Testing

/// The contracts of `LessonService` and `ImageService`, embedded and remote.
@Suite struct LessonServiceContractTests {
  @Test(arguments: Implementation.allCases)
  func loadsTheShippedCourse(_ implementation: Implementation) async throws {
    try await withServices(implementation) { services in
      let course = try await services.lessons.loadCourse()
      #expect(!course.lessons.isEmpty)
      #expect(course.lessons.map(\.id) == course.lessons.map(\.id).sorted())
    }
  }

  @Test func bothImplementationsLoadTheSameCourse() async throws {
    var courses: [LessonCourse] = []
    for implementation in Implementation.allCases {
      courses.append(
        try await withServicesReturning(implementation) { try await $0.lessons.loadCourse() })
    }
    #expect(courses.count == Implementation.allCases.count)
    #expect(courses.allSatisfy { $0 == courses[0] })
  }

  @Test func aBrokenLessonFileOnTheServerIsAClearError() async throws {
    try await withTemporaryDirectory { root in
      let file = root + "/lessons.json"
      try AtomicFile.write(Data("{\"lessons\": 3}".utf8), to: file)
      try await withLiveServer({ $0.lessons = file }) { url, _ in
        await #expect(throws: LessonLoadError.self) {
          try await RemoteLessonService(server: RemoteServer(baseURL: url)).loadCourse()
        }
      }
    }
  }

  /// What the server cannot serve is said when it starts, not first found by a client's 500
  /// or 404: a walk-through's `--lessons` with a typo started silently.
  @Test(arguments: ["missing", "broken", "shipped"])
  func whatTheServerCannotServeIsSaidAtTheStart(_ kind: String) async throws {
    try await withTemporaryDirectory { root in
      var options = testOptions(root)
      let file = root + "/lessons.json"
      switch kind {
      case "missing":
        options.lessons = file
        options.imagesDirectory = root + "/images"
        options.videosDirectory = root + "/videos"
      case "broken":
        try AtomicFile.write(Data("{\"lessons\": 3}".utf8), to: file)
        options.lessons = file
        options.imagesDirectory = file
        options.videosDirectory = file
      default: break
      }
      let notices = try Backend(options: options).startNotices()
      switch kind {
      case "missing":
        #expect(
          notices == [
            "Cannot read \(file): No such file or directory; GET /api/lessons answers 500 "
              + "until it can be read",
            "Images could not be listed: \(root)/images: No such file or directory; GET /v2/list "
              + "answers 500 until it can be read",
            "\(root)/videos: No such file or directory; GET /videos/… answers 404 until it is "
              + "there",
          ])
      case "broken":
        #expect(notices.count == 3)
        #expect(notices.first?.hasPrefix(file + ": ") == true)
        let said = "; GET /api/lessons answers 500 until it can be read"
        #expect(notices.first?.hasSuffix(said) == true)
        #expect(
          notices.last == "\(file): not a folder; GET /videos/… answers 404 until it is there")
      default:
        #expect(notices.isEmpty)
      }
    }
  }
}

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct ImageServiceContractTests {
  @Test(arguments: Implementation.allCases)
  func listsTheImagesAndFetchesTheirBytes(_ implementation: Implementation) async throws {
    let folder = assetsPath + "/images"
    let check: @Sendable (any ImageService) async throws -> Void = { service in
      let images = try await service.listImages()
      #expect(images.count == 11)
      #expect(images.map(\.id) == images.map(\.id).sorted())
      #expect(images.first?.id == "aurora.png")
      #expect(images.first?.caption == "aurora")
      for image in images {
        let bytes = try await service.bytes(of: image)
        let file = try AtomicFile.read(path: folder + "/" + image.id, limit: 64 << 20)
        #expect(bytes == [UInt8](file ?? Data()))
        if let size = image.size {
          #expect(try ImageDecoder.header(bytes: bytes).size == size)
        }
      }
    }
    switch implementation {
    case .embedded:
      try await check(
        DirectoryImageService(directory: folder, clock: ContinuousClock(), latency: .zero))
    case .remote, .remotePostgres:
      // Images are files shipped with every instance (not database rows): one server shows it.
      // Twelve requests one after another, each with 30 s to answer rather than the app's 10:
      // this checks what comes, not how fast, and in the full suite the server shares two
      // cores with a hundred others (two fresh-clone CI runs saw one read pass 10 s).
      try await withLiveServer { url, _ in
        try await check(
          RemoteImageService(server: RemoteServer(baseURL: url, timeout: .seconds(30))))
      }
    }
  }
}
