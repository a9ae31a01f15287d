import HTTPTypes
import Hummingbird
import MyworkoutWire
import NIOCore
import NIOHTTP1

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An answer other than success, with its exact JSON body (SPEC §15).
package struct APIError: Error, Sendable {
  package var status: HTTPResponse.Status
  package var body: Body
  /// Headers beside the body (a 401's `WWW-Authenticate`).
  package var headers: HTTPFields = [:]
  /// Said to the server's log only (a store's own words, which the client is not told).
  package var logged: String?

  package enum Body: Sendable {
    case oauth(OAuthErrorBody)
    case code(CodeErrorBody)
  }

  package init(
    _ status: HTTPResponse.Status, error: String, description: String? = nil,
    logged: String? = nil
  ) {
    self.status = status
    body = .oauth(OAuthErrorBody(error: error, errorDescription: description))
    self.logged = logged
  }

  package init(_ status: HTTPResponse.Status, code: String, description: String) {
    self.status = status
    body = .code(CodeErrorBody(code: code, description: description))
  }

  package var response: Response {
    var response =
      switch body {
      case .oauth(let body): JSONResponse.make(body, status: status)
      case .code(let body): JSONResponse.make(body, status: status)
      }
    response.headers.append(contentsOf: headers)
    return response
  }

  static func badRequest(_ description: String) -> APIError {
    APIError(.badRequest, error: "invalid_request", description: description)
  }

  /// No credentials: RFC 6750 §3's challenge, without an error code.
  static let unauthorized: APIError = {
    var error = APIError(
      .unauthorized, error: "invalid_token", description: "A valid Bearer token is required.")
    error.headers[.wwwAuthenticate] = "Bearer"
    return error
  }()
  /// A token that is not a current one of ours.
  static let invalidToken: APIError = {
    var error = unauthorized
    error.headers[.wwwAuthenticate] = "Bearer error=\"invalid_token\""
    return error
  }()
  static let tooManyAttempts = APIError(
    .tooManyRequests, error: "too_many_attempts",
    description: "Too many attempts. Try again in a minute.")
  static let notFound = APIError(.notFound, error: "not_found")
  /// The IETF draft's answer to an `Idempotency-Key` reused with another request.
  static let keyReused = APIError(
    .unprocessableContent, error: "idempotency_key_reused",
    description: "This Idempotency-Key was already used for another request.")
  static let serverError = APIError(.internalServerError, error: "server_error")
  /// The server cannot take this now (it ran out of file descriptors): try again later.
  static let busy = APIError(
    .serviceUnavailable, error: "temporarily_unavailable",
    description: "The server is busy; try again shortly.")
  static let tooLarge = tooLarge(limit: ServerLimits.bodyBytes)

  /// A body over `limit` bytes (1 MiB, or a route's smaller bound).
  static func tooLarge(limit: Int) -> APIError {
    let size = limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"
    return APIError(
      .contentTooLarge, error: "request_too_large", description: "The body is over \(size).")
  }
}

package enum JSONResponse {
  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  /// `value`'s JSON as a buffer.
  static func bytes(_ value: some Encodable) -> ByteBuffer {
    // Our DTOs always encode.
    ByteBuffer(bytes: (try? encoder.encode(value)) ?? Data("{}".utf8))
  }

  /// A 200 answering `body`, JSON.
  static func response(_ body: ByteBuffer) -> Response {
    Response(
      status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
  }

  /// A 200 whose body carries tokens: never stored by any cache (RFC 6749 §5.1: `no-store`,
  /// and `Pragma: no-cache` for HTTP/1.0 caches; Auth0 sends both).
  static func tokens(_ value: TokenResponse) -> Response {
    var response = make(value)
    response.headers[.cacheControl] = "no-store"
    response.headers[HTTPField.Name("Pragma")!] = "no-cache"
    return response
  }

  package static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
    // Our DTOs always encode.
    let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
    return Response(
      status: status, headers: [.contentType: "application/json"],
      body: .init(byteBuffer: ByteBuffer(bytes: data)))
  }
}

/// Turns every failure into a JSON body, and refuses a declared body over the limit before it
/// is read (a body without a length is cut off at the limit when it is read).
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    if let length = request.headers[.contentLength].flatMap({ Int($0) }),
      length > ServerLimits.bodyBytes
    {
      return Self.tooLarge.response
    }
    // Bytes that were no request (`RequestHeadHandler` stands a request marked so in for them).
    if let status = request.headers[Self.unreadable].flatMap({ Int($0) }) {
      let description =
        switch status {
        case 431: "The request's header fields are too long."
        case 501: "The request's method is not one this server knows."
        case 505: "The request's HTTP version is not one this server speaks (HTTP/1.1)."
        default: "The request is not HTTP/1.1 as RFC 9112 says."
        }
      var response = APIError(
        HTTPResponse.Status(code: status), error: "invalid_request", description: description
      ).response
      response.headers[.connection] = "close"
      return response
    }
    // No `Host`, two, or one that is no host (RFC 9112 §3.2; `RequestHeadHandler` marks it).
    if request.headers[Self.badHost] != nil {
      return APIError.badRequest("The request needs one Host field naming a host.").response
    }
    // A NUL in the path or the query (`%00`): refused before any store sees it.
    if RequestBody.holdsNUL(request.uri.string.utf8) {
      return APIError.badRequest(RequestBody.nulRefusal).response
    }
    do {
      return try await next(request, context)
    } catch let error as APIError {
      if let logged = error.logged { context.logger.error("\(logged)") }
      return error.response
    } catch let error as StoreError {
      context.logger.error("store: \(error.message)")
      return error.apiError.response
    } catch is NIOTooManyBytesError {
      return Self.tooLarge.response
    } catch is HTTPParserError {
      // A body whose framing cannot be read (a transfer coding other than chunked, a chunk's
      // size past any number): the client's fault, not the server's (RFC 9112 §6.1).
      return APIError.badRequest("The request's body is not framed as HTTP/1.1 says.").response
    } catch let error as HTTPError {
      switch error.status {
      case .contentTooLarge: return Self.tooLarge.response
      case .notFound: return APIError.notFound.response
      case .methodNotAllowed:
        return APIError(.methodNotAllowed, error: "method_not_allowed").response
      default:
        let status = error.status
        return APIError(
          status, error: status.code < 500 ? "invalid_request" : "server_error",
          description: error.body
        ).response
      }
    } catch {
      context.logger.error("request failed: \(String(describing: type(of: error)))")
      return APIError.serverError.response
    }
  }

  static var tooLarge: APIError { APIError.tooLarge }
  static var badHost: HTTPField.Name { HTTPField.Name(RequestHeadHandler.badHost)! }
  static var unreadable: HTTPField.Name { HTTPField.Name(RequestHeadHandler.unreadable)! }
}
