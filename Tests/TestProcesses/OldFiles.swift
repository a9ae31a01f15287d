/// Files as earlier versions of the project wrote them, for the tests of their upgrades.
public enum OldFiles {
  /// The tables of `progress.sqlite` version 1 (part two, the app's and the server's): rows
  /// filed under normalised emails, one lesson event per lesson and round.
  public static let progressVersion1Tables = """
    CREATE TABLE class_progress(
      account TEXT NOT NULL, class TEXT NOT NULL, position INTEGER NOT NULL,
      watched TEXT NOT NULL, time_in_class INTEGER NOT NULL,
      PRIMARY KEY (account, class)) WITHOUT ROWID;
    CREATE TABLE lesson_rounds(account TEXT PRIMARY KEY, round INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE lesson_events(
      account TEXT NOT NULL, round INTEGER NOT NULL, lesson TEXT NOT NULL,
      started TEXT NOT NULL, completed TEXT NOT NULL, UNIQUE (account, round, lesson));
    PRAGMA user_version = 1;
    """
}
