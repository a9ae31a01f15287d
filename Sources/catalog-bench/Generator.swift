/// Writes a classes file of made-up classes: seeded, so every run times the same file.
struct Generator {
  static let styles = [
    "Hip Hop", "Salsa", "House", "Popping", "Locking", "Waacking", "Krump", "Breaking",
    "Jazz Funk", "Vogue", "Dancehall", "Afrobeats", "Contemporary", "Tutting", "Heels", "Samba",
  ]
  static let words = [
    "Grooves", "Basics", "Footwork", "Freestyle", "Combo", "Drills", "Flow", "Isolations",
    "Routine", "Musicality", "Turns", "Waves", "Bounce", "Rock", "Step", "Party",
  ]
  static let firstNames = [
    "Zoë", "José", "Anne", "Marcus", "Leanne", "Kenji", "Priya", "Björn", "Océane", "Tariq",
    "Camila", "Søren", "Min-seo", "Chidi", "Lucía", "Hannah",
  ]
  static let lastNames = [
    "Okafor", "Ramírez", "Park", "Bell", "Watanabe", "Natarajan", "Lindqvist", "Martin",
    "Mensah", "Duarte", "Nielsen", "Han", "Okonkwo", "Moreno", "Schäfer", "Ivanova",
  ]
  static let levels = ["beginner", "intermediate", "advanced"]

  private var state: UInt64

  init(seed: UInt64) { state = seed }

  /// SplitMix64.
  private mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  private mutating func pick(_ list: [String]) -> String {
    list[Int(next() % UInt64(list.count))]
  }

  /// The file's text: a header and `count` rows, every row distinct (numbered).
  mutating func classesFile(count: Int) -> String {
    var text = "title,instructor,level,song,videoUrl,thumbnailSlug,duration\n"
    for index in 1...count {
      let title = "\(pick(Self.styles)) \(pick(Self.words)) \(index)"
      let instructor = "\(pick(Self.firstNames)) \(pick(Self.lastNames))"
      let song = "\"\(pick(Self.words)), \(pick(Self.words))\""
      let duration = 300 + Int(next() % 1500)
      text += "\(title),\(instructor),\(pick(Self.levels)),\(song),"
      text += "https://videos.example.com/\(index).mp4,class-thumbnail-\(index % 3 + 1).jpg,"
      text += "\(duration)\n"
    }
    return text
  }
}
