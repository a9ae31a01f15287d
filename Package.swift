// swift-tools-version:6.1
import PackageDescription

// Linux only: the event loop uses signalfd and Glibc (see ARCHITECTURE.md).

let strict: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  // Release: a section per function, so that lld can put the start path together (below).
  .unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release)),
]

// The release build of the app is one self-contained binary: the Swift runtime and the C
// libraries (ncurses, SQLite, libpng, libjpeg, zlib) linked in statically, by lld, with the
// functions a launch runs placed together (Sources/myworkout-main/startup.order, made by
// bench/startup_order.py). Loading nine shared libraries and relocating 50,000 pointers was
// half of the time to the first frame; see DECISIONS.md "Start and memory". Debug builds and
// the other executables link as usual.
let releaseApp: [LinkerSetting] = [
  .unsafeFlags(
    [
      "-static-executable", "-use-ld=lld",
      "-Xlinker",
      "--symbol-ordering-file=\(Context.packageDirectory)/Sources/myworkout-main/startup.order",
      "-Xlinker", "--no-warn-symbol-ordering",
    ], .when(platforms: [.linux], configuration: .release)),
  // What the static archives of ncursesw and libpng need (a shared library names its own).
  .linkedLibrary("tinfo", .when(platforms: [.linux], configuration: .release)),
  .linkedLibrary("z", .when(platforms: [.linux], configuration: .release)),
]

let package = Package(
  name: "myworkout",
  products: [
    .executable(name: "myworkout", targets: ["MyworkoutMain"]),
    .executable(name: "myworkout-remote", targets: ["myworkout-remote"]),
    .executable(name: "myworkout-server", targets: ["myworkout-server"]),
  ],
  dependencies: [
    // Command-line parsing of myworkout, myworkout-server and the bench helpers; DECISIONS.md.
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // PBKDF2 password hashing, RS256 token signing, SHA-256 for Gravatar and file names.
    .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    // TestClock for service tests only (never linked into the app).
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    // The backend (myworkout-server) only; the app never links it. Traits off: no full Foundation.
    .package(
      url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    // Used directly by the server target (channels, buffers, header names, logs).
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    // Remote mode's HTTP client (MyworkoutRemote), created only when --server is given.
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    // The server's shared store when several instances run (`--database postgres://…`).
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
  ],
  targets: [
    .systemLibrary(name: "CNcurses", path: "Sources/CNcurses"),
    .systemLibrary(name: "CEventLoop", path: "Sources/CEventLoop"),
    // posix_spawn's closefrom action (glibc), for children that must hold nothing else.
    .systemLibrary(name: "CSpawn", path: "Sources/CSpawn"),
    // glibc's mallopt, for the server's video chunks (ServerCommand.giveBackLargeBuffers).
    .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
    // The system's libsqlite3 (FTS5 with the trigram tokenizer): catalog.sqlite, progress.sqlite.
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
    // Async-signal-safe crash handlers that put the terminal back (C: no Swift in a handler).
    .target(name: "CTerminalGuard"),
    .target(name: "MyworkoutCore", swiftSettings: strict),
    .target(
      name: "MyworkoutServices",
      dependencies: [
        "CSQLite", "MyworkoutCore",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "CryptoExtras", package: "swift-crypto"),
      ],
      swiftSettings: strict
    ),
    .target(name: "MyworkoutView", dependencies: ["MyworkoutCore"], swiftSettings: strict),
    .target(
      name: "MyworkoutTerminal", dependencies: ["CNcurses", "CTerminalGuard", "MyworkoutView"],
      swiftSettings: strict),
    // libpng and libjpeg(-turbo) called under setjmp; Debian's libpng-dev, libjpeg62-turbo-dev.
    .target(
      name: "CImageCodecs",
      linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
    ),
    // Decoding, scaling and quantising pictures for half-block drawing; the image service.
    .target(
      name: "MyworkoutImages", dependencies: ["CImageCodecs", "MyworkoutCore", "MyworkoutView"],
      swiftSettings: strict),
    // JSON shapes shared by the server and remote mode (FoundationEssentials only).
    .target(
      name: "MyworkoutWire", dependencies: ["MyworkoutCore", "MyworkoutServices"],
      swiftSettings: strict),
    // The backend: routes, SQLite store, token signing, limits (testable in-process).
    .target(
      name: "MyworkoutServer",
      dependencies: [
        "CSQLite", "MyworkoutCore", "MyworkoutServices", "MyworkoutImages", "MyworkoutWire",
        .product(name: "Hummingbird", package: "hummingbird"),
        // Its HTTP/1 server with an idle timeout (built for Hummingbird anyway).
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "NIOCore", package: "swift-nio"),
        // Its HTTP/1 request heads, which still carry the version (built for Hummingbird anyway).
        .product(name: "NIOHTTP1", package: "swift-nio"),
        // Already built for Hummingbird's FileIO: the video files' chunks, read as it reads them.
        .product(name: "_NIOFileSystem", package: "swift-nio"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "CryptoExtras", package: "swift-crypto"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ],
      swiftSettings: strict
    ),
    .executableTarget(
      name: "myworkout-server",
      dependencies: [
        "CMalloc", "MyworkoutCore", "MyworkoutServer",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strict
    ),
    // Remote mode: every service as an HTTP client of myworkout-server.
    .target(
      name: "MyworkoutRemote",
      dependencies: [
        "MyworkoutCore", "MyworkoutServices", "MyworkoutImages", "MyworkoutWire",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "CryptoExtras", package: "swift-crypto"),
      ],
      swiftSettings: strict
    ),
    // FFmpeg's libraries, PulseAudio's API and ALSA (when no sound server answers) behind
    // a few C calls (Debian's libavformat-dev, libavcodec-dev, libswscale-dev, libavfilter-dev,
    // libpulse-dev, libasound2-dev).
    .target(
      name: "CMedia",
      linkerSettings: [
        .linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("avutil"),
        .linkedLibrary("swscale"), .linkedLibrary("swresample"),
        .linkedLibrary("pulse"), .linkedLibrary("asound"),
      ]),
    // The wire between the app and its player process, the media clock and frame scheduling
    // (pure Swift: the app links it without FFmpeg).
    .target(name: "MyworkoutMedia", swiftSettings: strict),
    // The Player's video and sound (SPEC §19) in a process of its own, started when a class with
    // a video opens: the app's start path carries none of FFmpeg (DECISIONS.md). Not a
    // dependency of the app's target: SwiftPM would link FFmpeg and libpulse into the app too
    // (and the static release link cannot have them); `swift build` builds it beside the app.
    .executableTarget(
      name: "myworkout-media", dependencies: ["CEventLoop", "CMedia", "MyworkoutMedia"],
      swiftSettings: strict),
    // The app's code (a library, so that two executables share it); main.swift is in
    // Sources/myworkout-main.
    .target(
      name: "myworkout",
      dependencies: [
        "CEventLoop", "CSpawn", "MyworkoutCore", "MyworkoutServices", "MyworkoutView",
        "MyworkoutTerminal", "MyworkoutImages", "MyworkoutMedia", "MyworkoutWire",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strict
    ),
    // The app (embedded services only: no networking code, SPEC §16).
    .executableTarget(
      name: "MyworkoutMain", dependencies: ["myworkout"],
      path: "Sources/myworkout-main",
      exclude: ["startup.order"], swiftSettings: strict, linkerSettings: releaseApp),
    // The app with remote mode (SPEC §15); `myworkout` execs it for --server and --auth0-*.
    .executableTarget(
      name: "myworkout-remote",
      dependencies: ["myworkout", "MyworkoutCore", "MyworkoutServices", "MyworkoutRemote"],
      swiftSettings: strict),
    // Times the real password hasher for bench/bench.py.
    .executableTarget(
      name: "hash-timing", dependencies: ["MyworkoutServices"], swiftSettings: strict),
    // Times the image pipeline (list → tiles decoded, scaled, quantised) for bench/bench.py.
    .executableTarget(
      name: "image-bench", dependencies: ["MyworkoutCore", "MyworkoutImages", "MyworkoutView"],
      swiftSettings: strict),
    // Times catalog import and search at 100,000 classes for bench/bench.py (not in the app).
    .executableTarget(
      name: "catalog-bench", dependencies: ["MyworkoutCore", "MyworkoutServices"],
      swiftSettings: strict),
    // Remote mode's outbox without the screen: queues and drains it for the process tests and
    // the benchmark's drain figure (SPEC §18).
    .executableTarget(
      name: "outbox-drive",
      dependencies: ["MyworkoutCore", "MyworkoutServices", "MyworkoutRemote"],
      swiftSettings: strict),
    // Test helper only: drives the stores from several processes for the process tests.
    .executableTarget(
      name: "store-stress", dependencies: ["MyworkoutServices"], swiftSettings: strict),
    // Shared by the tests: starting and reaping real processes (tmux, the app, store-stress),
    // and files as earlier versions wrote them.
    .target(
      name: "TestProcesses", dependencies: ["CSpawn"], path: "Tests/TestProcesses",
      swiftSettings: strict),
    .testTarget(
      name: "MyworkoutCoreTests", dependencies: ["MyworkoutCore", "TestProcesses"],
      swiftSettings: strict),
    .testTarget(
      name: "MyworkoutServicesTests",
      dependencies: [
        "MyworkoutServices", "TestProcesses",
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "MyworkoutViewTests", dependencies: ["MyworkoutView"], exclude: ["__Snapshots__"],
      swiftSettings: strict),
    // The app target: the runtime without a terminal (a recording terminal, manual timers, a
    // gated service) and its command-line values.
    .testTarget(
      name: "MyworkoutAppTests",
      dependencies: [
        "myworkout", "MyworkoutCore", "MyworkoutServices", "MyworkoutView", "MyworkoutImages",
        "TestProcesses",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "MyworkoutImagesTests",
      dependencies: [
        "MyworkoutCore", "MyworkoutImages", "MyworkoutView", "TestProcesses",
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      swiftSettings: strict
    ),
    // The server's routes in-process, and one contract suite per service protocol run against the
    // embedded implementation and the HTTP client talking to a server on a free loopback port.
    .testTarget(
      name: "MyworkoutServerTests",
      dependencies: [
        "MyworkoutCore", "MyworkoutServices", "MyworkoutImages", "MyworkoutServer",
        "MyworkoutRemote", "MyworkoutWire", "TestProcesses",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Clocks", package: "swift-clocks"),
        // To hold a transaction open as an instance that stopped would.
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ],
      swiftSettings: strict
    ),
    // The media clock and the wire (unit), and myworkout-media on clips made with ffmpeg.
    .testTarget(
      name: "MyworkoutMediaTests",
      dependencies: ["CMedia", "CSpawn", "MyworkoutMedia", "TestProcesses"],
      swiftSettings: strict),
    .testTarget(
      name: "MyworkoutTerminalTests", dependencies: ["MyworkoutTerminal"], swiftSettings: strict),
    // Drives the built binary in tmux; uses the services only to prepare data on disk.
    .testTarget(
      name: "EndToEndTests", dependencies: ["MyworkoutCore", "MyworkoutServices", "TestProcesses"],
      swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)
