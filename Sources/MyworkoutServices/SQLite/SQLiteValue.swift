/// A value bound to a statement parameter: SQLite's five storage classes.
package enum SQLiteValue: Equatable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
  ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
  package init(integerLiteral value: Int64) { self = .integer(value) }
  package init(stringLiteral value: String) { self = .text(value) }
  package init(nilLiteral: ()) { self = .null }
  package init(floatLiteral value: Double) { self = .real(value) }

  /// An `Int` as an integer.
  package static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }

  /// Text, or null for nil.
  package static func optional(_ value: String?) -> SQLiteValue {
    value.map(SQLiteValue.text) ?? .null
  }
}
