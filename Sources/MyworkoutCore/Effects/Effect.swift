/// Which running piece of work an effect starts or cancels. Starting work under an id that is
/// already running supersedes it: the older answer never arrives.
package enum EffectID: Hashable, Sendable {
  case checkEmail
  case logIn
  case signUp
  case editNumber
  /// The first page of the catalog for a query (a search supersedes the one before).
  case catalogSearch
  /// A later page of the catalog.
  case catalogMore
  /// The lesson course and this round's events.
  case lessonsLoad
  /// A lesson completion or a new round being saved.
  case lessonProgress
  /// The Images screen's list.
  case imageList
  /// One picture: an image decoded for a tile of a size (one id per tile and size, so a tile
  /// scrolled away is cancelled alone).
  case picture(TileKey)
  /// A class's thumbnail for the Classes preview, by its file name.
  case thumbnail(slug: String)
  /// The Player's stored progress for its class.
  case progressLoad
  /// The Player's picture (its class's thumbnail at the picture area's size).
  case playerPicture
  /// The watched % of the classes listed (signed in).
  case watchedPercents
}

extension EffectID {
  /// Whether a spinner turns while it runs. Pictures decoding show `Loading…` in their tile and
  /// the Player's progress and the list's watched % are a moment's local work: nothing turns for
  /// them, so no timer wakes the app.
  package var turnsSpinner: Bool {
    switch self {
    case .picture, .thumbnail, .playerPicture, .progressLoad, .watchedPercents: false
    default: true
    }
  }
}

/// A service call, as data. The effect runner carries it out and answers with the action the
/// request names (see `EffectRunner`).
package enum Request: Equatable, Sendable {
  /// Whether an email is registered; answers `.getStarted(.checkEmailResponse)`.
  case checkEmail(String)
  /// Answers `.login(.logInResponse)`.
  case logIn(email: String, password: String)
  /// Answers `.signup(.signUpResponse)`.
  case signUp(Registration)
  /// Answers `.profile(.editNumberResponse)`.
  case updateMobile(token: String, mobile: String)
  /// A page of the catalog; answers `.classes(.pageLoaded)`.
  case catalogPage(query: String, offset: Int, limit: Int)
  /// The course and the account's events of this round; answers `.lessons(.loaded)`.
  case loadLessons(account: String)
  /// Records a solved lesson (solved now); answers `.lessons(.completionRecorded)`.
  case recordLessonCompletion(account: String, lessonID: Int, started: Timestamp)
  /// Start over: a new round for the account; answers `.lessons(.roundStarted)`.
  case startLessonRound(account: String)
  /// The images to show; answers `.images(.listLoaded)`.
  case imageList
  /// An image decoded, scaled and quantised for a tile; answers `.images(.pictureLoaded)`.
  case picture(ImageInfo, tile: TileSize, colors: PictureColors)
  /// A class's thumbnail (found by `thumbnailSlug` next to the catalog file) for a tile;
  /// answers `.classes(.thumbnailLoaded)`.
  case thumbnail(slug: String, tile: TileSize, colors: PictureColors)
  /// The same for the Player's picture area; answers `.player(.pictureLoaded)`.
  case classPicture(slug: String, tile: TileSize, colors: PictureColors)
  /// What an account did with a class; answers `.player(.progressLoaded)`.
  case loadProgress(account: String, classID: String)
  /// Watched % of the listed classes for an account; answers `.classes(.watchedLoaded)`.
  case watchedPercents(account: String, classes: [DanceClass])
}

/// Work the reducer asks for, as plain data. Several requests may run at once, each under its
/// own id; writes and quitting need no id.
package enum Effect: Equatable, Sendable {
  /// Starts a request under an id, superseding one already running under it.
  case run(EffectID, Request)
  /// Cancels the request running under an id; its answer never arrives.
  case cancel(EffectID)
  /// Keeps the session for the next launch (only ever after a request succeeded).
  case saveSession(Session)
  /// Keeps a renewed session (a number edited) for the next launch while the kept one is still
  /// this account's: not over another person's later log-in in another copy of the app.
  case renewSession(Session)
  /// Forgets this session (log out, or its expiry) while the kept one is this account's: not
  /// another person's later log-in in another copy of the app.
  case endSession(Session)
  /// Merges what the Player played into the stored progress. Never cancelled or superseded
  /// (each is a part of what was watched): saves run in order, and the app waits for them
  /// before it exits. Answers `.player(.progressSaved)`.
  case recordProgress(ProgressUpdate)
  /// Tells the Player's video player what to do (SPEC §19); it answers `.player(.video(_))`.
  case video(VideoCommand)
  /// Restores the terminal and exits with this status.
  case quit(status: Int32)
}
