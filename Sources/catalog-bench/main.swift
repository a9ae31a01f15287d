// catalog-bench: times the catalog for bench/bench.py (SPEC §16), never a pass/fail test.
// Generates 100,000 classes into a temporary classes file, imports it into a temporary data
// directory, then times pages of 50 (first pages, with their count) for queries of 3+
// characters and of 1–2 characters, and key-to-results over the brief's 351 classes with no
// latency. Prints plain `name: value` lines.
//
//   catalog-bench [--classes N] [--brief PATH] [--repeats N]
import MyworkoutCore
import MyworkoutServices

#if canImport(Glibc)
  import Glibc
#endif

var classes = 100_000
var briefPath = "../shared/data/steezy/classes-data.csv"
var repeats = 20
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
  guard let value = arguments.popFirst() else { fatal("\(flag) needs a value") }
  switch flag {
  case "--classes": classes = Int(value) ?? classes
  case "--brief": briefPath = value
  case "--repeats": repeats = max(1, Int(value) ?? repeats)
  default: fatal("unknown option \(flag)")
  }
}

let root = temporaryDirectory()
defer { removeTree(root) }

// The generated catalog: import, then first pages.
let file = root + "/generated.csv"
var generator = Generator(seed: 2026)
write(generator.classesFile(count: classes), to: file)
let store = CatalogStore(
  directory: try DataDirectory.prepare(path: root + "/data"),
  source: CatalogSource(file: file, shipped: file), onNotice: { print("notice: \($0)") })
let start = Timing.clock.now
let startCPU = Timing.processorSeconds()
let all = try await store.page(query: "", offset: 0, limit: 50)
print("classes: \(all.total)")
print("import_s: \(Timing.text(Timing.seconds(Timing.clock.now - start)))")
// CPU time tells how much of the wall time was the import's own work on a busy machine.
print("import_cpu_s: \(Timing.text(Timing.processorSeconds() - startCPU))")

func timePages(
  _ queries: [String], repeats: Int
) async throws -> (times: [Double], capped: Int) {
  var times: [Double] = []
  var capped = 0
  for query in queries {
    for _ in 0..<repeats {
      let begin = Timing.clock.now
      let page = try await store.page(query: query, offset: 0, limit: 50)
      times.append(Timing.milliseconds(Timing.clock.now - begin))
      if page.isCapped { capped += 1 }
    }
  }
  return (times, capped / repeats)
}

let long = try await timePages(
  [
    "hip", "hop", "salsa", "zoe", "ann", "groove", "okafor", "beginner", "rock 123", "flow zoë",
    "jazz funk", "xyzzy",
  ], repeats: repeats)
print("page_long_p50_ms: \(Timing.text(Timing.percentile(long.times, 0.5)))")
print("page_long_p95_ms: \(Timing.text(Timing.percentile(long.times, 0.95)))")
print("page_long_queries: 12")
print("page_long_capped_queries: \(long.capped)")
let short = try await timePages(
  ["a", "z", "é", "hi", "zz", "7", "12", "q", "ob", "x 1"], repeats: repeats)
print("page_short_p50_ms: \(Timing.text(Timing.percentile(short.times, 0.5)))")
print("page_short_p95_ms: \(Timing.text(Timing.percentile(short.times, 0.95)))")

// The brief's 351 classes through the service with no latency, as typed, one key at a time.
if access(briefPath, R_OK) == 0 {
  let service = EmbeddedCatalogService(
    store: CatalogStore(
      directory: try DataDirectory.prepare(path: root + "/brief"),
      source: CatalogSource(file: briefPath, shipped: briefPath)),
    clock: ContinuousClock(), latency: .zero)
  _ = try await service.page(query: "", offset: 0, limit: 50)
  var times: [Double] = []
  for word in ["anne", "dolor", "Pfannerstill", "adv qu"] {
    for end in 1...word.count {
      for _ in 0..<repeats {
        let begin = Timing.clock.now
        _ = try await service.page(query: String(word.prefix(end)), offset: 0, limit: 50)
        times.append(Timing.milliseconds(Timing.clock.now - begin))
      }
    }
  }
  print("key_to_results_351_p50_ms: \(Timing.text(Timing.percentile(times, 0.5)))")
  print("key_to_results_351_p95_ms: \(Timing.text(Timing.percentile(times, 0.95)))")
} else {
  print("key_to_results_351_p95_ms: n/a (no \(briefPath))")
}
