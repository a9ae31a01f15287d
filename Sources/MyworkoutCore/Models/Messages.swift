/// Every text the user can be shown as an error or confirmation, exactly as SPEC §4 writes it.
public enum Message {
  public static let allFieldsRequired = "All fields are required"
  public static let emailNotValid = "Email is not valid"
  public static let completeTheForm = "Please complete the form"
  public static let weakPassword =
    "Password should contain one special character and minimum 8 characters required"
  public static let mobileNotValid = "Mobile number is not valid"
  public static let selectGender = "Please select a gender"
  public static let emailExists = "Email already exists"
  public static let noAccount = "No account exists for this email"
  public static let wrongCredentials = "Wrong email or password"
  public static let sessionExpired = "Your session has expired. Please log in again."
  public static let numberEdited = "Number was edited successfully"
}
