import Foundation
import MyworkoutMedia
import TestProcesses
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Sound (SPEC §19) through a real PulseAudio daemon with a null sink, started by the test, its
/// monitor recorded with `parec`: a slowed-down class keeps its pitch (a time-stretch, not a
/// slower tape), and with no sound server the player says `no sound` and plays on the wall
/// clock.
@Suite(.serialized) struct SoundTests {
  /// A private PulseAudio daemon (Debian's `pulseaudio`; `.ci/run` installs it).
  final class SoundServer {
    let runtime: String

    init() throws {
      try #require(
        FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio"),
        "the sound tests need pulseaudio: apt-get install pulseaudio")
      runtime =
        NSTemporaryDirectory() + "myworkout-pulse-\(getpid())-\(Int.random(in: 0..<1_000_000))"
      try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
      // Ended (its folder removed once it is gone) however this process ends: `deinit` does
      // not run when a test crashes.
      try ExitWatch.atEnd(
        #"pid=$(cat "$1/pulse/pid" 2>/dev/null); XDG_RUNTIME_DIR="$1" /usr/bin/pulseaudio --kill"#
          + #" >/dev/null 2>&1; n=0; while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null"#
          + #" && [ $n -lt 100 ]; do sleep 0.05; n=$((n+1)); done; rm -rf "$1""#,
        arguments: [runtime])
      try start()
    }

    /// Starts the daemon (again, after `stop`, on the same socket) and waits until it answers.
    func start() throws {
      try run(
        "/usr/bin/pulseaudio",
        [
          "-n", "--daemonize=yes", "--exit-idle-time=-1", "--load=module-null-sink sink_name=probe",
          "--load=module-native-protocol-unix",
        ])
      // Up when it answers.
      let deadline = ContinuousClock.now + .seconds(10)
      while (try? run("/usr/bin/pactl", ["info"])) == nil {
        try #require(ContinuousClock.now < deadline, "pulseaudio started")
      }
    }

    var environment: [String: String] { ["XDG_RUNTIME_DIR": runtime] }

    /// The daemon's process (its pid file).
    func pid() throws -> pid_t {
      let text = try String(contentsOfFile: runtime + "/pulse/pid", encoding: .utf8)
      return try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// Runs `tool` to its end (reaped with waitpid: see InheritedDescriptorTests); throws
    /// unless it exits with 0.
    func run(_ tool: String, _ arguments: [String]) throws {
      let end = try ChildProcess.spawn([tool] + arguments, environment: variables)
        .waitBlocking()
      guard end == .exited(0) else {
        throw ChildProcess.Failed(description: "\(tool) \(arguments): \(end)")
      }
    }

    /// The streams playing into the daemon now (`pactl list short sink-inputs`, one a line).
    func streamsPlaying() throws -> Int {
      try ChildProcess.run(
        ["/usr/bin/pactl", "list", "short", "sink-inputs"], environment: variables
      )
      .split(separator: "\n").count
    }

    /// A stream on the daemon: its index and whether it is corked.
    struct Stream: Equatable, CustomStringConvertible {
      var index: Int
      var corked: Bool
      var description: String { "#\(index)\(corked ? " corked" : "")" }
    }

    /// The streams on the daemon now (`pactl list sink-inputs`).
    func streams() throws -> [Stream] {
      let listing = try ChildProcess.run(
        ["/usr/bin/pactl", "list", "sink-inputs"],
        environment: variables.merging(["LC_ALL": "C"]) { $1 })
      var found: [Stream] = []
      for line in listing.split(separator: "\n") {
        let text = line.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("Sink Input #"), let index = Int(text.dropFirst(12)) {
          found.append(Stream(index: index, corked: false))
        } else if text.hasPrefix("Corked:"), !found.isEmpty {
          found[found.count - 1].corked = text.hasSuffix("yes")
        }
      }
      return found
    }

    /// Waits until the streams are as `wanted` says; false when they are not within 10 s.
    func awaitStreams(_ wanted: ([Stream]) -> Bool) async throws -> Bool {
      let deadline = ContinuousClock.now + .seconds(10)
      while try !wanted(streams()) {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(20))
      }
      return true
    }

    /// Waits until `streamsPlaying()` is `count`; false when it is not within 10 s.
    func awaitStreams(_ count: Int) async throws -> Bool {
      let deadline = ContinuousClock.now + .seconds(10)
      while try streamsPlaying() != count {
        guard ContinuousClock.now < deadline else { return false }
        // Asked again in a moment; the test pool's thread is free meanwhile.
        try await Task.sleep(for: .milliseconds(20))
      }
      return true
    }

    private var variables: [String: String] {
      ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }

    /// Records what the sink plays (mono, 48 kHz, s16) while `body` runs.
    func record(_ body: () async throws -> Void) async throws -> [Int16] {
      let file = runtime + "/heard.raw"
      let parec = try ChildProcess.spawn(
        [
          "/usr/bin/parec", "-d", "probe.monitor", "--latency-msec=20", "--raw",
          "--format=s16le", "--rate=48000", "--channels=1", file,
        ], environment: variables)
      do {
        // Gone before the file is read, whether `body` returned or threw.
        defer {
          parec.send(SIGKILL)
          _ = parec.waitBlocking()
        }
        try await body()
      }
      let data = try Data(contentsOf: URL(fileURLWithPath: file))
      return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Ends the daemon (as a desktop's sound server that crashes or is restarted).
    func stop() {
      _ = try? run("/usr/bin/pulseaudio", ["--kill"])
    }

    deinit { stop() }
  }

  /// A player with sound in `environment`, playing `clip` (the colour-per-second clip, its
  /// 440 Hz tone, unless told) from its first frame.
  static func playing(_ environment: [String: String], clip: String? = nil) async throws
    -> MediaProcess
  {
    var source = clip ?? ""
    if clip == nil { source = try await Clips.colourPerSecond() }
    let player = try await MediaProcess.opened(
      source, width: 16, height: 8, muted: false, environment: environment)
    player.send(.play)
    return player
  }

  /// The first time report at or past `milliseconds` (nil when none comes within 15 s).
  static func time(of player: MediaProcess, reaches milliseconds: Int) async -> MediaEvent? {
    await player.awaitNext(within: .seconds(15)) {
      if case .time(let time) = $0 { time >= milliseconds } else { false }
    }
  }

  /// The tone's frequency, from the zero crossings of the loud part.
  static func frequency(_ samples: [Int16]) -> Double? {
    guard let start = samples.firstIndex(where: { abs(Int($0)) > 2_000 }),
      let end = samples.lastIndex(where: { abs(Int($0)) > 2_000 }), end - start > 9_600
    else { return nil }
    let loud = samples[(start + 2_400)..<(end - 2_400)]
    // The median period between rising zero crossings: a gap in what the recording got (a
    // machine under load drops some) lengthens one period, where counting crossings over the
    // whole stretch read 396 Hz for 440.
    var rises: [Int] = []
    var previous = loud.first ?? 0
    for (index, sample) in zip(loud.indices.dropFirst(), loud.dropFirst()) {
      if previous < 0 && sample >= 0 { rises.append(index) }
      previous = sample
    }
    let periods = zip(rises, rises.dropFirst()).map { $1 - $0 }.sorted()
    guard !periods.isEmpty else { return nil }
    return 48_000 / Double(periods[periods.count / 2])
  }

  @Test func halfSpeedKeepsThePitch() async throws {
    let server = try SoundServer()
    let clip = try await Clips.colourPerSecond()
    for speed in [100, 50] {
      let heard = try await server.record {
        let player = try MediaProcess(muted: false, environment: server.environment)
        player.send(.size(width: 16, height: 8))
        player.send(.open(source: clip, timeoutMilliseconds: 5_000))
        _ = try #require(await player.awaitFrame())
        player.send(.speed(speed))
        _ = await player.awaitFrame()
        player.send(.play)
        // 2.5 s of media, however long that takes at this speed (parec needs a moment to start).
        let reached = await player.awaitNext(within: .seconds(15)) {
          if case .time(let milliseconds) = $0 {
            return milliseconds >= 2_500
          } else {
            return false
          }
        }
        #expect(reached != nil, "played at \(speed)%")
      }
      let tone = Self.frequency(heard)
      let frequency = try #require(tone, "a tone was heard at \(speed)% (\(heard.count) samples)")
      #expect(abs(frequency - 440) < 15, "440 Hz at \(speed)%: heard \(frequency)")
    }
  }

  /// A stream slower than its video, with sound: play stops (`Buffering…`) when what came has
  /// played, and between the waits it runs at its speed. A walk-through's stream at half its
  /// bitrate crept at half speed under `▶ Playing`: the sound ran dry, the clock (the sound's)
  /// stood still with it, and nothing said so; muted, the same stream waited as it should.
  @Test func aSlowStreamWithSoundWaitsAndPlaysAtItsSpeedInBetween() async throws {
    let sound = try SoundServer()
    let clip = try await Clips.movingWithSound()
    let size = try #require(try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int)
    // 60 % of the clip's bitrate (10 s), after its first 20 KB.
    let (server, player) = try await ThrottledStreamTests.serving(
      rate: size * 6 / 100, first: 20_000, clip: clip, muted: false,
      environment: sound.environment)
    defer {
      server.send(SIGKILL)
      _ = server.waitBlocking()
    }
    player.send(.play)
    // The media time played and the wall time it took, outside the waits.
    var waits = 0
    var waiting = false
    var last: (media: Int, at: ContinuousClock.Instant)?
    var played = 0
    var took: Duration = .zero
    var end: MediaEvent?
    while end == nil, let event = await player.awaitNext(within: .seconds(60), { _ in true }) {
      switch event {
      case .time(let milliseconds):
        let now = ContinuousClock.now
        if !waiting, let last, milliseconds > last.media {
          played += milliseconds - last.media
          took += now - last.at
        }
        last = waiting ? nil : (milliseconds, now)
      case .buffering(let on):
        waiting = on
        last = nil
        if on { waits += 1 }
      case .ended, .failed: end = event
      default: break
      }
    }
    #expect(end == .ended, "played to the end")
    #expect(waits >= 1, "it waited for the network")
    let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
    let speed = Double(played) / 1000 / max(seconds, 0.001)
    print(
      "A stream with sound at 60 % of its bitrate: \(waits) waits, \(played) ms in \(seconds) s")
    #expect(speed > 0.8, "played \(played) ms in \(seconds) s between the waits")
  }

  /// A file on the disk with sound never says `Buffering…`: not while it plays, and not after
  /// a seek, while the decoder has only begun and the sound has not started (the sound running
  /// out that says a stream ran dry must not be taken for that).
  @Test func aLocalFileWithSoundNeverWaits() async throws {
    let sound = try SoundServer()
    let player = try await Self.playing(sound.environment, clip: try await Clips.movingWithSound())
    var waits: [MediaEvent] = []
    for target in [2_000, 6_000, 1_000, 8_000] {
      player.send(.seek(milliseconds: target))
      let reached = await player.awaitNext(within: .seconds(15)) {
        if case .buffering(true) = $0 { waits.append($0) }
        if case .time(let time) = $0 { return time >= target + 700 }
        return false
      }
      #expect(reached != nil, "played on from \(target)")
    }
    #expect(waits.isEmpty, "\(waits)")
  }

  /// `s` while playing: the pictures go on to the end, on the wall clock. Before, the sound
  /// queued for the device (two seconds of it, full long before the pictures' queue on a clip
  /// of a picture a second) was not played and still counted as a full queue:
  /// the decoder stopped, the pictures ran out, and the class stood on `Buffering…` until the
  /// next seek (found by a review).
  @Test func soundTurnedOffWhilePlayingLeavesThePicturesComing() async throws {
    let sound = try SoundServer()
    // A picture a second: the sound's queue is the one that fills.
    let player = try await Self.playing(
      sound.environment, clip: try await Clips.slowPicturesWithSound())
    #expect(await Self.time(of: player, reaches: 1_000) != nil)
    player.send(.sound(false))
    var waited = false
    let end = await player.awaitNext(within: .seconds(20)) {
      if $0 == .buffering(true) { waited = true }
      return $0 == .ended || $0 == .buffering(true)
    }
    #expect(!waited, "Buffering… with the file on the disk")
    #expect(end == .ended)
  }

  /// A clip with no pictures from 6 s to 11 s and sound throughout, played with sound at 2x
  /// from 4 s, then sought into the stretch: the class goes on through the stretch (the sound
  /// plays, the picture before it stays) and shows the pictures after it, and the seek shows
  /// the picture on screen there. Before, the player waited for a picture with its sound queue
  /// full, and stood still.
  @Test func aStillStretchWithSoundPlaysThrough() async throws {
    let server = try SoundServer()
    let player = try await MediaProcess.opened(
      try await Clips.gap(), width: 16, height: 8, muted: false, environment: server.environment)
    player.send(.seek(milliseconds: 4_000))
    _ = try #require(await player.awaitFrame())
    player.send(.speed(200))
    player.send(.play)
    let after = await player.awaitNext(within: .seconds(20)) {
      if case .frame(let frame) = $0 { frame.milliseconds >= 11_000 } else { false }
    }
    #expect(after != nil, "a picture after the stretch")
    player.send(.pause)
    player.send(.seek(milliseconds: 8_000))
    let sought = await player.awaitNext(within: .seconds(20)) {
      if case .frame(let frame) = $0 { frame.milliseconds < 11_000 } else { false }
    }
    guard case .frame(let frame)? = sought else {
      Issue.record("no picture for 8 s")
      return
    }
    #expect(frame.milliseconds == 5_960)
    player.send(.play)
    #expect(await Self.time(of: player, reaches: 11_500) != nil, "played on from 8 s")
  }

  /// With sound, paused in a still stretch (no pictures from 6 s to 11 s): a step forward
  /// shows the first picture after it, and play goes on. Before, the decoder rested on a full
  /// sound queue that a pause does not play, the step waited for ever, and play then froze (a
  /// walk-through's finding).
  @Test func aStepForwardLeavesAStillStretchWithSound() async throws {
    let server = try SoundServer()
    let player = try await MediaProcess.opened(
      try await Clips.gap(), width: 16, height: 8, muted: false, environment: server.environment)
    try await PlayerProcessTests.seekIntoTheStillStretchAndStepOut(player)
    player.send(.seek(milliseconds: 5_940))
    #expect(try #require(await player.awaitFrame()).milliseconds == 5_920)
    player.send(.step(1))
    #expect(try #require(await player.awaitFrame()).milliseconds == 5_960)
    player.send(.step(1))
    #expect(try #require(await player.awaitFrame()).milliseconds == 11_040)
    player.send(.play)
    #expect(await Self.time(of: player, reaches: 12_000) != nil, "plays on after the steps")
  }

  /// A paused class corks its stream on the sound server: kept there (play goes on at once;
  /// a stream freed and opened again waited for an idle sink, up to 1.7 s on a null sink), and
  /// asked nothing while corked (libpulse's timing timer, which woke the player a few times a
  /// second, is not used: SPEC §19, no wake-ups while paused). Play uncorks the same stream and
  /// the sound goes on from where it stopped.
  @Test func aPauseCorksTheSoundServersStreamAndPlayGoesOnWithIt() async throws {
    let server = try SoundServer()
    let player = try await Self.playing(server.environment)
    func played(to milliseconds: Int) async -> Bool {
      await Self.time(of: player, reaches: milliseconds) != nil
    }
    #expect(await played(to: 500))
    #expect(try await server.awaitStreams(1), "a stream while playing")
    let playing = try server.streams()
    #expect(playing.map(\.corked) == [false], "playing: \(playing)")
    player.send(.pause)
    #expect(try await server.awaitStreams { $0.map(\.corked) == [true] }, "corked while paused")
    #expect(try server.streams().map(\.index) == playing.map(\.index), "the same stream")
    let heard = try await server.record {
      player.send(.play)
      #expect(await played(to: 2_500), "played on")
      let streams = try server.streams()
      #expect(streams == playing, "the same stream, uncorked: \(streams)")
    }
    let tone = Self.frequency(heard)
    let frequency = try #require(tone, "a tone was heard after the pause (\(heard.count) samples)")
    #expect(abs(frequency - 440) < 15, "440 Hz: heard \(frequency)")
  }

  /// The sound server gone mid-class: the state line says there is no sound, and the pictures
  /// go on, on the wall clock.
  @Test func aSoundServerThatGoesAwayLeavesThePicturesPlaying() async throws {
    let server = try SoundServer()
    let player = try await Self.playing(server.environment)
    let playing = await Self.time(of: player, reaches: 500)
    guard case .time(let before)? = playing else {
      Issue.record("not playing: \(String(describing: playing))")
      return
    }
    server.stop()
    let sound = await player.awaitNext(within: .seconds(10)) {
      if case .sound = $0 { true } else { false }
    }
    guard case .sound(let note?)? = sound else {
      Issue.record("no sound note: \(String(describing: sound))")
      return
    }
    #expect(note.hasPrefix("no sound"), "\(note)")
    let later = await player.awaitNext(within: .seconds(10)) {
      if case .time(let time) = $0 { time >= before + 1_500 } else { false }
    }
    #expect(later != nil, "the pictures go on")
    // The server back: `s` (the app asks for sound again after `no sound`) plays it again.
    try server.start()
    let heard = try await server.record {
      player.send(.sound(true))
      let back = await player.awaitNext(within: .seconds(10)) {
        if case .sound = $0 { true } else { false }
      }
      #expect(back == .sound(nil), "sound again: \(String(describing: back))")
      // From the start again: the 4 s clip is near its end by now.
      player.send(.seek(milliseconds: 0))
      let start = await player.awaitNext {
        if case .frame(let frame) = $0 { frame.milliseconds < 500 } else { false }
      }
      #expect(start != nil, "the sought frame")
      #expect(await Self.time(of: player, reaches: 2_500) != nil, "plays on")
    }
    let tone = Self.frequency(heard)
    let frequency = try #require(tone, "a tone was heard again (\(heard.count) samples)")
    #expect(abs(frequency - 440) < 15, "440 Hz: heard \(frequency)")
  }

  /// A sound server that stops for a while (SIGSTOP: a desktop's server busy, or stopped in a
  /// debugger) while a class plays: the sound thread waits in its write, the sound queue fills,
  /// the pictures run out (`Buffering…`). When the server goes on, so does the class. (A review
  /// saw it stand on `Buffering…` for good: the sound is not taken while buffering, and the
  /// full sound queue held the decoder that would have ended the buffering.)
  @Test func aSoundServerThatStopsForAWhileLeavesTheClassPlayingAfter() async throws {
    let server = try SoundServer()
    let clip = try await Clips.make(
      "tone-30.mp4",
      [
        "-f", "lavfi", "-i",
        "color=c=black:s=320x180:r=24,format=rgb24,geq=r='8*floor(T)':g=0:b=0", "-f", "lavfi",
        "-i", "sine=f=440:sample_rate=48000", "-t", "30", "-c:v", "libx264", "-g", "48",
        "-pix_fmt", "yuv420p", "-c:a", "aac",
      ])
    let player = try await Self.playing(server.environment, clip: clip)
    #expect(await Self.time(of: player, reaches: 500) != nil)
    let daemon = try server.pid()
    kill(daemon, SIGSTOP)
    let waiting = await player.awaitNext(within: .seconds(10)) { $0 == .buffering(true) }
    kill(daemon, SIGCONT)
    #expect(waiting != nil, "buffering while the server stood still")
    let resumed = await player.awaitNext(within: .seconds(10)) { $0 == .buffering(false) }
    #expect(resumed != nil, "the buffering ends once the server goes on")
    var last = 0
    let moving = await player.awaitNext(within: .seconds(10)) {
      guard case .time(let time) = $0 else { return false }
      if last == 0 { last = time }
      return time >= last + 1_500
    }
    #expect(moving != nil, "plays on")
  }

  /// A sound server that takes the connection and never answers (hung, or stopped in a
  /// debugger): the pictures come and play on the wall clock meanwhile — opening the sound does
  /// not hold up the player's commands (it did, for the minute libpulse waits, and the app's
  /// keys piled up behind it).
  @Test func aSoundServerThatNeverAnswersHoldsNothingUp() async throws {
    let folder =
      NSTemporaryDirectory() + "myworkout-hung-pulse-\(getpid())-\(Int.random(in: 0..<1_000_000))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/native"
    // Listens (so a connection is taken into the backlog) and never accepts or answers; the
    // socket gets its name once it listens.
    let silent = try ChildProcess.spawn(
      [
        "python3", "-c",
        "import os, socket, sys, time\ns = socket.socket(socket.AF_UNIX)\n"
          + "s.bind(sys.argv[1] + '.new')\ns.listen(8)\nos.rename(sys.argv[1] + '.new', sys.argv[1])\n"
          + "time.sleep(600)",
        socket,
      ], searchPath: true)
    defer {
      silent.send(SIGKILL)
      _ = silent.waitBlocking()
    }
    let deadline = ContinuousClock.now + .seconds(10)
    while !FileManager.default.fileExists(atPath: socket) {
      try #require(ContinuousClock.now < deadline, "the silent server is up")
    }
    var environment = try Self.withoutServer(alsaDefault: "{ type hw card 99 }")
    environment["PULSE_SERVER"] = "unix:" + socket
    let player = try MediaProcess(muted: false, environment: environment)
    player.send(.size(width: 16, height: 8))
    player.send(.open(source: try await Clips.colourPerSecond(), timeoutMilliseconds: 5_000))
    #expect(await player.awaitFrame(within: .seconds(5)) != nil, "the first picture")
    player.send(.play)
    let moving = await player.awaitNext(within: .seconds(10)) {
      if case .time(let time) = $0 { time >= 1_000 } else { false }
    }
    #expect(moving != nil, "plays on the wall clock")
  }

  /// No sound server to reach, and ALSA configured (`ALSA_CONFIG_PATH`, read in place of the
  /// system's configuration) with `device` as its default.
  static func withoutServer(alsaDefault device: String) throws -> [String: String] {
    let nowhere =
      NSTemporaryDirectory() + "myworkout-no-pulse-\(getpid())-\(Int.random(in: 0..<1_000_000))"
    try FileManager.default.createDirectory(atPath: nowhere, withIntermediateDirectories: true)
    let configuration = nowhere + "/alsa.conf"
    try "pcm.!default \(device)\n".write(toFile: configuration, atomically: true, encoding: .utf8)
    return [
      "XDG_RUNTIME_DIR": nowhere, "PULSE_SERVER": "unix:" + nowhere + "/none",
      "ALSA_CONFIG_PATH": configuration,
    ]
  }

  /// With no sound server to reach through PulseAudio's API, the sound goes to ALSA's default
  /// device: here ALSA's `pulse` plugin pointed at the test's daemon (a device paced as a sound
  /// card is, that `parec` can hear), so the tone is heard at its pitch, and the pictures move
  /// with it.
  @Test func withNoSoundServerTheSoundGoesToALSA() async throws {
    let server = try SoundServer()
    let device = "{ type pulse server \"unix:\(server.runtime)/pulse/native\" }"
    let heard = try await server.record {
      let player = try await Self.playing(Self.withoutServer(alsaDefault: device))
      #expect(await Self.time(of: player, reaches: 2_500) != nil, "played")
    }
    let tone = Self.frequency(heard)
    let frequency = try #require(tone, "a tone was heard through ALSA (\(heard.count) samples)")
    #expect(abs(frequency - 440) < 15, "440 Hz: heard \(frequency)")
  }

  @Test func withNoSoundServerOrDeviceThePlayerSaysSoAndPlaysOnTheWallClock() async throws {
    let player = try MediaProcess(
      muted: false, environment: Self.withoutServer(alsaDefault: "{ type hw card 99 }"))
    player.send(.size(width: 16, height: 8))
    player.send(.open(source: try await Clips.colourPerSecond(), timeoutMilliseconds: 5_000))
    let sound = await player.awaitNext { if case .sound = $0 { true } else { false } }
    guard case .sound(let note?)? = sound else {
      Issue.record("no sound note: \(String(describing: sound))")
      return
    }
    #expect(note.hasPrefix("no sound"))
    _ = try #require(await player.awaitFrame())
    player.send(.play)
    let later = await player.awaitNext(within: .seconds(15)) {
      if case .time(let milliseconds) = $0 { milliseconds >= 500 } else { false }
    }
    #expect(later != nil, "the wall clock moves the pictures")
    // `s` with no device to turn off: still no sound, for the same reason (it said `sound
    // off`, as if there were sound); on again, the device is tried again.
    player.send(.sound(false))
    let off = await player.awaitNext { if case .sound = $0 { true } else { false } }
    #expect(off == .sound(note), "off: \(String(describing: off))")
    player.send(.sound(true))
    let on = await player.awaitNext { if case .sound = $0 { true } else { false } }
    #expect(on == .sound(note), "on: \(String(describing: on))")
  }
}
