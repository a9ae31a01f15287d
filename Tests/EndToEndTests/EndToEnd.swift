import Testing

/// Every end-to-end suite nests here, so that they run one test at a time: each test drives a
/// real binary in a real terminal and waits for real seconds (the service's latency), and many at
/// once on a small machine would only measure the machine.
@Suite(.serialized) enum EndToEnd {}
