/// Every text the user can be shown as an error or confirmation, exactly as SPEC §4 and §15
/// write them.
package enum Message {
  package static let allFieldsRequired = "All fields are required"
  package static let emailNotValid = "Email is not valid"
  package static let completeTheForm = "Please complete the form"
  package static let weakPassword =
    "Password should contain one special character and minimum 8 characters required"
  package static let mobileNotValid = "Mobile number is not valid"
  /// Why Edit number cannot be used when the accounts are on a real Auth0 tenant (SPEC §15).
  package static let editNumberNeedsServer =
    "Editing the number needs myworkout-server; Auth0 keeps it in your profile's metadata"
  package static let selectGender = "Please select a gender"
  package static let emailExists = "Email already exists"
  package static let noAccount = "No account exists for this email"
  package static let wrongCredentials = "Wrong email or password"
  package static let sessionExpired = "Your session has expired. Please log in again."
  package static let numberEdited = "Number was edited successfully"
  package static let rateLimited = "Too many attempts. Try again in a minute."
  package static let serverProblem = "The server had a problem. Try again."
  package static let noConnection = "Can't reach the server. Try again."
  package static let timedOut = "The server did not answer. Try again."

  /// A paste longer than the field's limit was cut to fit.
  package static func pasteCut(limit: Int) -> String {
    "The pasted text was cut to fit: this field takes at most \(limit) characters"
  }
}
