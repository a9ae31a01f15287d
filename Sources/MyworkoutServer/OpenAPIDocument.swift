/// The server's API as an OpenAPI 3.0.3 document, served at `GET /openapi.json` (issue 28).
/// `Tests/api-fuzz/run.sh` fuzzes the server against it with Schemathesis; keep it the
/// truth: every route, parameter, bound and status code the code answers.
package enum OpenAPIDocument {
  /// A video answer's body, in each media type served.
  private static let videoContent = VideoFile.mediaTypes.map {
    #""\#($0.type)": {"schema": {"type": "string", "format": "binary"}}"#
  }.joined(separator: ", ")

  /// The endings of the videos served, as a list in words.
  private static let videoEndings: String = {
    let endings = VideoFile.mediaTypes.flatMap(\.endings).map { "." + $0 }
    return endings.dropLast().joined(separator: ", ") + " or " + (endings.last ?? "")
  }()

  package static let json: String = #"""
    {
      "openapi": "3.0.3",
      "info": {
        "title": "myworkout-server",
        "version": "1.0.0",
        "description": "Accounts, classes, progress, lessons, images; bodies <= 1 MiB (16 KiB for sign-up, login, lookup and token)."
      },
      "tags": [
        {"name": "auth"},
        {"name": "accounts"},
        {"name": "classes"},
        {"name": "progress"},
        {"name": "lessons"},
        {"name": "images"},
        {"name": "videos"},
        {"name": "meta"}
      ],
      "paths": {
        "/dbconnections/signup": {
          "post": {
            "operationId": "signup",
            "summary": "Creates an account (Auth0's database signup).",
            "tags": ["auth"],
            "requestBody": {
              "required": true,
              "content": {
                "application/json": {
                  "schema": {"$ref": "#/components/schemas/SignupRequest"},
                  "example": {
                    "client_id": "myworkout",
                    "email": "new@email.com",
                    "password": "pass-word-1",
                    "connection": "Username-Password-Authentication",
                    "given_name": "New",
                    "family_name": "User",
                    "user_metadata": {"gender": "female", "mobile": "012-345 6789"}
                  }
                }
              }
            },
            "security": [],
            "responses": {
              "200": {
                "description": "The new account.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/SignupResponse"}}
                }
              },
              "400": {
                "description": "invalid_request, or invalid_signup, invalid_password, user_exists.",
                "content": {
                  "application/json": {
                    "schema": {
                      "anyOf": [
                        {"$ref": "#/components/schemas/OAuthError"},
                        {"$ref": "#/components/schemas/Auth0Error"}
                      ]
                    }
                  }
                }
              },
              "413": {"$ref": "#/components/responses/TooLarge"},
              "429": {"$ref": "#/components/responses/TooManyRequests"},
              "500": {"$ref": "#/components/responses/ServerError"},
              "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/oauth/token": {
          "post": {
            "operationId": "token",
            "summary": "Logs in with Auth0's password or password-realm grant.",
            "tags": ["auth"],
            "requestBody": {
              "required": true,
              "content": {
                "application/json": {
                  "schema": {"$ref": "#/components/schemas/TokenRequest"},
                  "example": {
                    "grant_type": "password",
                    "username": "registered@email.com",
                    "password": "password",
                    "client_id": "myworkout",
                    "scope": "openid profile email"
                  }
                },
                "application/x-www-form-urlencoded": {
                  "schema": {"$ref": "#/components/schemas/TokenRequest"},
                  "example": {
                    "grant_type": "password",
                    "username": "registered@email.com",
                    "password": "password",
                    "client_id": "myworkout",
                    "scope": "openid profile email"
                  }
                }
              },
              "description": "JSON, or a URL-encoded form."
            },
            "security": [],
            "responses": {
              "200": {
                "description": "The tokens.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/TokenResponse"}}
                }
              },
              "400": {
                "description": "invalid_request (unreadable body) or unsupported_grant_type.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
                }
              },
              "403": {
                "description": "invalid_grant: wrong email or password.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
                }
              },
              "413": {"$ref": "#/components/responses/TooLarge"},
              "429": {"$ref": "#/components/responses/TooManyRequests"},
              "500": {"$ref": "#/components/responses/ServerError"},
              "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/authenticate": {
          "post": {
            "operationId": "authenticate",
            "summary": "Logs in (brief 004); with --chaos a third of answers are 401, a third 500.",
            "tags": ["auth"],
            "requestBody": {
              "required": true,
              "content": {
                "application/json": {
                  "schema": {"$ref": "#/components/schemas/AuthenticateRequest"},
                  "example": {"email": "registered@email.com", "password": "password"}
                }
              }
            },
            "security": [],
            "responses": {
              "200": {
                "description": "The tokens.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/TokenResponse"}}
                }
              },
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {
                "description": "invalid_credentials: wrong email or password.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
                }
              },
              "413": {"$ref": "#/components/responses/TooLarge"},
              "429": {"$ref": "#/components/responses/TooManyRequests"},
              "500": {
                "description": "server_error (with --chaos: a third of all answers).",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
                }
              },
              "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/userinfo": {
          "get": {
            "operationId": "userinfo",
            "summary": "The profile of the token's account (OpenID Connect claims).",
            "tags": ["auth"],
            "security": [{"bearer": []}],
            "responses": {
              "200": {
                "description": "The profile.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/UserInfo"}}
                }
              },
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "500": {"$ref": "#/components/responses/ServerError"},
              "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/.well-known/jwks.json": {
          "get": {
            "operationId": "jwks",
            "summary": "The public key that signs the tokens.",
            "tags": ["auth"],
            "security": [],
            "responses": {
              "200": {
                "description": "The key set.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/JSONWebKeySet"}}
                }
              },
              "413": {"$ref": "#/components/responses/TooLarge"}
            }
          }
        },
        "/.well-known/openid-configuration": {
          "get": {
            "operationId": "openidConfiguration",
            "summary": "OpenID Connect discovery.",
            "tags": ["auth"],
            "security": [],
            "responses": {
              "200": {
                "description": "The configuration.",
                "content": {
                  "application/json": {
                    "schema": {"$ref": "#/components/schemas/OpenIDConfiguration"}
                  }
                }
              },
              "413": {"$ref": "#/components/responses/TooLarge"}
            }
          }
        },
        "/api/accounts/lookup": {
          "post": {
            "operationId": "lookupEmail",
            "summary": "Whether an email is registered (3 x --login-limit a minute per address).",
            "tags": ["accounts"],
            "requestBody": {
              "required": true,
              "content": {
                "application/json": {
                  "schema": {"$ref": "#/components/schemas/EmailLookupRequest"},
                  "example": {"email": "registered@email.com"}
                }
              }
            },
            "security": [],
            "responses": {
              "200": {
                "description": "The answer.",
                "content": {
                  "application/json": {
                    "schema": {"$ref": "#/components/schemas/EmailLookupResponse"}
                  }
                }
              },
              "400": {"$ref": "#/components/responses/BadRequest"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "429": {"$ref": "#/components/responses/TooManyRequests"},
              "500": {"$ref": "#/components/responses/ServerError"},
              "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/api/me/mobile": {
          "post": {
            "operationId": "updateMobile",
            "summary": "Changes the mobile number; new tokens with the original expiry.",
            "tags": ["accounts"],
            "requestBody": {
              "required": true,
              "content": {
                "application/json": {
                  "schema": {"$ref": "#/components/schemas/MobileUpdateRequest"},
                  "example": {"mobile": "+60123456789"}
                }
              }
            },
            "security": [{"bearer": []}],
            "responses": {
              "200": {
                "description": "New tokens.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/TokenResponse"}}
                }
              },
              "400": {
                "description": "invalid_request (unreadable body) or invalid_mobile.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
                }
              },
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "412": {"$ref": "#/components/responses/PreconditionFailed"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "500": {"$ref": "#/components/responses/ServerError"},
              "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/api/classes": {
          "get": {
            "operationId": "listClasses",
            "summary": "One page of a catalog search.",
            "tags": ["classes"],
            "parameters": [
              {
                "name": "q",
                "in": "query",
                "required": false,
                "description": "Search text (default: everything): at most 200 characters and 32 words (400 past either).",
                "schema": {"type": "string", "maxLength": 200}
              },
              {
                "name": "offset",
                "in": "query",
                "required": false,
                "description": "Classes to skip (default 0).",
                "schema": {
                  "type": "integer",
                  "format": "int64",
                  "minimum": 0,
                  "maximum": 9223372036854775807
                }
              },
              {
                "name": "limit",
                "in": "query",
                "required": false,
                "description": "Classes a page at most (default 50; over 500 reads as 500).",
                "schema": {
                  "type": "integer",
                  "format": "int64",
                  "minimum": 0,
                  "maximum": 9223372036854775807
                }
              }
            ],
            "security": [],
            "responses": {
              "200": {
                "description": "The page.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/CatalogPage"}}
                }
              },
              "400": {"$ref": "#/components/responses/BadRequest"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "500": {"$ref": "#/components/responses/ServerError"},
              "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/api/classes/{id}": {
          "get": {
            "operationId": "getClass",
            "summary": "One class of the catalog.",
            "tags": ["classes"],
            "parameters": [
              {
                "example": "f6f89d952e1dceab0fbede873cb21cf13db789be9100c50e8bd821977342364b",
                "name": "id",
                "in": "path",
                "required": true,
                "description": "The class's id.",
                "schema": {"type": "string", "minLength": 1}
              }
            ],
            "security": [],
            "responses": {
              "200": {
                "description": "The class.",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Class"}}}
              },
              "404": {"$ref": "#/components/responses/NotFound"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "500": {"$ref": "#/components/responses/ServerError"},
              "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/api/progress/percents": {
          "post": {
            "operationId": "watchedPercents",
            "summary": "Watched % of the listed classes that have progress.",
            "tags": ["progress"],
            "requestBody": {
              "required": true,
              "content": {
                "application/json": {
                  "schema": {"$ref": "#/components/schemas/PercentsRequest"},
                  "example": {
                    "classes": [
                      {
                        "id": "f6f89d952e1dceab0fbede873cb21cf13db789be9100c50e8bd821977342364b",
                        "duration": 540
                      }
                    ]
                  }
                }
              }
            },
            "security": [{"bearer": []}],
            "responses": {
              "200": {
                "description": "The percents.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/PercentsResponse"}}
                }
              },
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "500": {"$ref": "#/components/responses/ServerError"},
              "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/api/progress/{class}": {
          "get": {
            "operationId": "getProgress",
            "summary": "The progress of one class (zeros when none).",
            "tags": ["progress"],
            "parameters": [
              {
                "example": "f6f89d952e1dceab0fbede873cb21cf13db789be9100c50e8bd821977342364b",
                "name": "class",
                "in": "path",
                "required": true,
                "description": "The class's id, at most 255 bytes of UTF-8, percent-encoded (percents is POST-only: 404 for GET).",
                "schema": {"type": "string", "minLength": 1}
              }
            ],
            "security": [{"bearer": []}],
            "responses": {
              "200": {
                "description": "The progress.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/Progress"}}
                }
              },
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "404": {"$ref": "#/components/responses/NotFound"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "500": {"$ref": "#/components/responses/ServerError"},
              "503": {"$ref": "#/components/responses/Unavailable"}
            }
          },
          "post": {
            "operationId": "saveProgress",
            "summary": "Merges a change into a class's progress: position, played intervals, time.",
            "tags": ["progress"],
            "parameters": [
              {"$ref": "#/components/parameters/IfMatch"},
              {"$ref": "#/components/parameters/IfNoneMatch"},
              {
                "example": "f6f89d952e1dceab0fbede873cb21cf13db789be9100c50e8bd821977342364b",
                "name": "class",
                "in": "path",
                "required": true,
                "description": "The class's id, at most 255 bytes of UTF-8, percent-encoded.",
                "schema": {"type": "string", "minLength": 1}
              },
              {
                "name": "Idempotency-Key",
                "in": "header",
                "required": false,
                "description": "1 to 255 visible ASCII characters, bare or double-quoted.",
                "schema": {
                  "type": "string",
                  "pattern": "^(?:[!#-~][!-~]{0,254}|\"|\"[!-~]{0,253}[!#-~]|\"[!-~]{1,255}\")$"
                }
              }
            ],
            "requestBody": {
              "required": true,
              "content": {
                "application/json": {
                  "schema": {"$ref": "#/components/schemas/ProgressUpdate"},
                  "example": {
                    "position": 90000,
                    "played": [[0, 90000]],
                    "added_time_in_class": 90000
                  }
                }
              }
            },
            "security": [{"bearer": []}],
            "responses": {
              "200": {
                "description": "The progress after the change.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/Progress"}}
                }
              },
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "412": {"$ref": "#/components/responses/PreconditionFailed"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "422": {
                "description": "idempotency_key_reused: the key came with another request; too_many_intervals: the class's watched time would hold more than 10,000 separate intervals; or too_many_classes: the account already keeps progress for 10,000 classes and this is another (nothing of the change is applied).",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
                }
              },
              "500": {"$ref": "#/components/responses/ServerError"},
              "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/api/lessons": {
          "get": {
            "operationId": "getLessons",
            "summary": "The lessons (Mimo's GET /api/lessons: the lesson file as it is).",
            "tags": ["lessons"],
            "security": [],
            "responses": {
              "200": {
                "description": "The lesson file.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/LessonFile"}}
                }
              },
              "413": {"$ref": "#/components/responses/TooLarge"},
              "500": {"$ref": "#/components/responses/ServerError"}
            }
          }
        },
        "/api/lessons/completions": {
          "get": {
            "operationId": "listCompletions",
            "summary": "The account's lesson completion events of the current round, and its number (older rounds' events stay stored).",
            "tags": ["lessons"],
            "security": [{"bearer": []}],
            "responses": {
              "200": {
                "description": "The events.",
                "content": {
                  "application/json": {
                    "schema": {"$ref": "#/components/schemas/CompletionsResponse"}
                  }
                }
              },
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "500": {"$ref": "#/components/responses/ServerError"},
              "503": {"$ref": "#/components/responses/Unavailable"}
            }
          },
          "post": {
            "operationId": "recordCompletion",
            "summary": "Records a lesson's completion in the current round (once a round).",
            "tags": ["lessons"],
            "parameters": [
              {"$ref": "#/components/parameters/IfMatch"},
              {"$ref": "#/components/parameters/IfNoneMatch"},
              {
                "name": "Idempotency-Key",
                "in": "header",
                "required": false,
                "description": "1 to 255 visible ASCII characters, bare or double-quoted.",
                "schema": {
                  "type": "string",
                  "pattern": "^(?:[!#-~][!-~]{0,254}|\"|\"[!-~]{0,253}[!#-~]|\"[!-~]{1,255}\")$"
                }
              }
            ],
            "requestBody": {
              "required": true,
              "content": {
                "application/json": {
                  "schema": {"$ref": "#/components/schemas/CompletionRequest"},
                  "example": {"lesson_id": "1", "started": 1767225600, "completed": 1767225900}
                }
              }
            },
            "security": [{"bearer": []}],
            "responses": {
              "200": {
                "description": "The event recorded, or none.",
                "content": {
                  "application/json": {
                    "schema": {"$ref": "#/components/schemas/CompletionResponse"}
                  }
                }
              },
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "412": {"$ref": "#/components/responses/PreconditionFailed"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "422": {
                "description": "idempotency_key_reused: the key came with another request; or too_many_lesson_events: the account already keeps 10,000 lesson events, every round together, and this would be another (nothing is filed).",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
                }
              },
              "500": {"$ref": "#/components/responses/ServerError"},
              "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/api/lessons/rounds": {
          "post": {
            "operationId": "startRound",
            "summary": "Start over: a new round of lessons.",
            "tags": ["lessons"],
            "security": [{"bearer": []}],
            "requestBody": {
              "required": false,
              "content": {
                "application/json": {
                  "schema": {
                    "type": "object",
                    "properties": {
                      "from": {
                        "type": "integer", "minimum": 1, "maximum": 2147483647, "nullable": true,
                        "description": "The round the device starts over from. When another round is current (another device started over since), nothing starts: 409. Without it, the current round."
                      }
                    }
                  }
                }
              }
            },
            "responses": {
              "200": {
                "description": "The new round's number.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/RoundResponse"}}
                }
              },
              "400": {"$ref": "#/components/responses/BadRequest"},
              "409": {
                "description": "The round named in `from` is no longer the current one (`round_moved`); nothing started.",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
                }
              },
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "412": {"$ref": "#/components/responses/PreconditionFailed"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "500": {"$ref": "#/components/responses/ServerError"},
              "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/v2/list": {
          "get": {
            "operationId": "listImages",
            "summary": "The images, in Lorem Picsum's /v2/list fields.",
            "tags": ["images"],
            "security": [],
            "responses": {
              "200": {
                "description": "The images.",
                "content": {
                  "application/json": {
                    "schema": {
                      "type": "array",
                      "items": {"$ref": "#/components/schemas/PicsumImage"}
                    }
                  }
                }
              },
              "413": {"$ref": "#/components/responses/TooLarge"},
              "500": {"$ref": "#/components/responses/ServerError"}
            }
          }
        },
        "/id/{id}": {
          "get": {
            "operationId": "getImage",
            "summary": "One image file of the list.",
            "tags": ["images"],
            "parameters": [
              {
                "example": "aurora.png",
                "name": "id",
                "in": "path",
                "required": true,
                "description": "An id of the list (a file name).",
                "schema": {"type": "string", "minLength": 1}
              }
            ],
            "security": [],
            "responses": {
              "200": {
                "description": "The file.",
                "content": {
                  "image/png": {"schema": {"type": "string", "format": "binary"}},
                  "image/jpeg": {"schema": {"type": "string", "format": "binary"}}
                }
              },
              "404": {"$ref": "#/components/responses/NotFound"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "500": {"$ref": "#/components/responses/ServerError"}
            }
          }
        },
        "/videos/{file}": {
          "get": {
            "operationId": "getVideo",
            "summary": "A class video (SPEC §19), to a valid bearer token; byte ranges.",
            "tags": ["videos"],
            "parameters": [
              {
                "example": "bounce.mp4",
                "name": "file",
                "in": "path",
                "required": true,
                "description": "A file directly in the videos folder (a class's video_url): \#(videoEndings).",
                "schema": {"type": "string", "minLength": 1}
              },
              {
                "name": "Range",
                "in": "header",
                "required": false,
                "description": "One byte range (`bytes=N-`, `bytes=N-M`, `bytes=-N`).",
                "schema": {"type": "string"}
              },
              {
                "name": "If-Match",
                "in": "header",
                "required": false,
                "description": "Answer only while one of these tags (or *: any) is the file's ETag; weak tags never match (412 otherwise).",
                "schema": {"type": "string"}
              },
              {
                "name": "If-Unmodified-Since",
                "in": "header",
                "required": false,
                "description": "Without If-Match: answer only while the file has not changed since this HTTP date (412 otherwise; not a date: ignored).",
                "schema": {"type": "string"}
              }
            ],
            "security": [{"bearer": []}],
            "responses": {
              "200": {
                "description": "The whole file.",
                "content": {\#(videoContent)}
              },
              "206": {
                "description": "The range asked for (Content-Range).",
                "content": {\#(videoContent)}
              },
              "304": {"description": "Not modified (If-None-Match named the ETag)."},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "404": {"$ref": "#/components/responses/NotFound"},
              "412": {"$ref": "#/components/responses/PreconditionFailed"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "416": {
                "description": "range_not_satisfiable: the range starts past the end (Content-Range: bytes */size).",
                "content": {
                  "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
                }
              },
              "500": {"$ref": "#/components/responses/ServerError"},
              "503": {"$ref": "#/components/responses/Unavailable"}
            }
          }
        },
        "/openapi.json": {
          "get": {
            "operationId": "openAPI",
            "summary": "This document.",
            "tags": ["meta"],
            "security": [],
            "responses": {
              "200": {
                "description": "The OpenAPI document.",
                "content": {"application/json": {"schema": {"type": "object"}}}
              },
              "413": {"$ref": "#/components/responses/TooLarge"}
            }
          }
        }
      },
      "components": {
        "parameters": {
          "IfMatch": {
            "name": "If-Match",
            "in": "header",
            "required": false,
            "description": "Make the change only while one of these tags (or *: any) is the ETag a GET of this URI answers now; weak tags never match (412 otherwise).",
            "schema": {"type": "string"}
          },
          "IfNoneMatch": {
            "name": "If-None-Match",
            "in": "header",
            "required": false,
            "description": "Make the change only while none of these tags (or *: anything) is the ETag a GET of this URI answers now (412 otherwise).",
            "schema": {"type": "string"}
          }
        },
        "securitySchemes": {
          "bearer": {
            "type": "http", "scheme": "bearer", "bearerFormat": "JWT",
            "description": "The access_token of a log-in; an id_token is refused (invalid_token)."
          }
        },
        "schemas": {
          "OAuthError": {
            "type": "object",
            "properties": {
              "error": {
                "type": "string",
                "description": "A machine-readable code, e.g. invalid_request, invalid_token."
              },
              "error_description": {
                "type": "string",
                "description": "Why, in words; absent for not_found and server_error."
              }
            },
            "required": ["error"],
            "description": "The OAuth-style error body (all but signup's refusals)."
          },
          "Auth0Error": {
            "type": "object",
            "properties": {
              "code": {
                "type": "string",
                "description": "invalid_signup, invalid_password or user_exists."
              },
              "description": {"type": "string"}
            },
            "required": ["code", "description"],
            "description": "Auth0's signup error body."
          },
          "UserMetadataIn": {
            "type": "object",
            "properties": {
              "gender": {
                "type": "string",
                "description": "female, male, non-binary, prefer-not-to-say (anything else).",
                "nullable": true
              },
              "mobile": {
                "type": "string",
                "description": "A mobile number; empty or absent for none.",
                "nullable": true
              }
            },
            "nullable": true
          },
          "UserMetadata": {
            "type": "object",
            "properties": {
              "gender": {
                "type": "string",
                "enum": ["female", "male", "non-binary", "prefer-not-to-say"]
              },
              "mobile": {
                "type": "string",
                "description": "The number, normalised (E.164); absent when none was given."
              }
            },
            "required": ["gender"]
          },
          "SignupRequest": {
            "type": "object",
            "properties": {
              "client_id": {"type": "string"},
              "email": {
                "type": "string",
                "description": "local@domain.tld, at most 254 characters."
              },
              "password": {
                "type": "string",
                "description": "At least 8 characters, one neither a letter, digit nor space."
              },
              "connection": {"type": "string"},
              "given_name": {"type": "string", "nullable": true},
              "family_name": {"type": "string", "nullable": true},
              "user_metadata": {"$ref": "#/components/schemas/UserMetadataIn"}
            },
            "required": ["client_id", "email", "password", "connection"]
          },
          "SignupResponse": {
            "type": "object",
            "properties": {
              "_id": {
                "type": "string",
                "description": "The new account's id, without Auth0's auth0| prefix."
              },
              "email": {"type": "string", "description": "The email, trimmed and lower-cased."},
              "email_verified": {"type": "boolean"},
              "given_name": {"type": "string", "description": "As sent; absent when not sent."},
              "family_name": {"type": "string", "description": "As sent; absent when not sent."},
              "user_metadata": {"$ref": "#/components/schemas/UserMetadata"}
            },
            "required": ["_id", "email", "email_verified", "user_metadata"]
          },
          "TokenRequest": {
            "type": "object",
            "properties": {
              "grant_type": {
                "type": "string",
                "enum": ["password", "http://auth0.com/oauth/grant-type/password-realm"]
              },
              "username": {"type": "string", "description": "The account's email."},
              "password": {"type": "string"},
              "client_id": {"type": "string", "description": "The audience (aud) of the tokens."},
              "scope": {"type": "string", "nullable": true},
              "realm": {"type": "string", "nullable": true},
              "audience": {"type": "string", "nullable": true}
            },
            "required": ["grant_type", "username", "password", "client_id"]
          },
          "AuthenticateRequest": {
            "type": "object",
            "properties": {
              "email": {"type": "string"},
              "password": {"type": "string"},
              "client_id": {
                "type": "string",
                "description": "The audience of the tokens (default myworkout).",
                "nullable": true
              },
              "scope": {"type": "string", "nullable": true}
            },
            "required": ["email", "password"]
          },
          "TokenResponse": {
            "type": "object",
            "properties": {
              "access_token": {"type": "string", "description": "RS256 JWT."},
              "id_token": {"type": "string", "description": "RS256 JWT with the profile's claims."},
              "token_type": {"type": "string", "enum": ["Bearer"]},
              "expires_in": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "description": "Seconds until the tokens expire."
              },
              "scope": {
                "type": "string",
                "description": "The scope asked for; absent when none was."
              }
            },
            "required": ["access_token", "id_token", "token_type", "expires_in"]
          },
          "UserInfo": {
            "type": "object",
            "properties": {
              "sub": {"type": "string"},
              "email": {"type": "string"},
              "name": {
                "type": "string",
                "description": "Given and family name; absent when both are empty."
              },
              "given_name": {"type": "string"},
              "family_name": {"type": "string"},
              "gender": {
                "type": "string",
                "enum": ["female", "male", "non-binary", "prefer-not-to-say"]
              },
              "phone_number": {"type": "string", "description": "Empty when the account has none."}
            },
            "required": ["sub", "email", "given_name", "family_name", "gender", "phone_number"]
          },
          "JSONWebKeySet": {
            "type": "object",
            "properties": {
              "keys": {
                "type": "array",
                "items": {
                  "type": "object",
                  "properties": {
                    "kty": {"type": "string", "enum": ["RSA"]},
                    "kid": {"type": "string"},
                    "use": {"type": "string", "enum": ["sig"]},
                    "alg": {"type": "string", "enum": ["RS256"]},
                    "n": {"type": "string", "description": "Modulus, base64url without padding."},
                    "e": {"type": "string", "description": "Exponent, base64url without padding."}
                  },
                  "required": ["kty", "kid", "use", "alg", "n", "e"]
                }
              }
            },
            "required": ["keys"]
          },
          "OpenIDConfiguration": {
            "type": "object",
            "properties": {
              "issuer": {"type": "string"},
              "jwks_uri": {"type": "string"},
              "token_endpoint": {"type": "string"},
              "userinfo_endpoint": {"type": "string"},
              "id_token_signing_alg_values_supported": {
                "type": "array",
                "items": {"type": "string"}
              },
              "grant_types_supported": {"type": "array", "items": {"type": "string"}}
            },
            "required": [
              "issuer",
              "jwks_uri",
              "token_endpoint",
              "userinfo_endpoint",
              "id_token_signing_alg_values_supported",
              "grant_types_supported"
            ]
          },
          "EmailLookupRequest": {
            "type": "object",
            "properties": {"email": {"type": "string"}},
            "required": ["email"]
          },
          "EmailLookupResponse": {
            "type": "object",
            "properties": {"registered": {"type": "boolean"}},
            "required": ["registered"]
          },
          "MobileUpdateRequest": {
            "type": "object",
            "properties": {
              "mobile": {
                "type": "string",
                "description": "Digits with optional +, spaces and hyphens; normalised to E.164."
              }
            },
            "required": ["mobile"]
          },
          "Class": {
            "type": "object",
            "properties": {
              "id": {"type": "string"},
              "title": {"type": "string"},
              "instructor": {"type": "string"},
              "level": {"type": "string", "enum": ["beginner", "intermediate", "advanced"]},
              "song": {"type": "string"},
              "video_url": {"type": "string"},
              "thumbnail": {"type": "string"},
              "duration": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 2147483647,
                "description": "Seconds."
              }
            },
            "required": [
              "id",
              "title",
              "instructor",
              "level",
              "song",
              "video_url",
              "thumbnail",
              "duration"
            ]
          },
          "CatalogPage": {
            "type": "object",
            "properties": {
              "query": {"type": "string", "description": "The q asked."},
              "offset": {"type": "integer", "format": "int64", "minimum": 0},
              "classes": {
                "type": "array",
                "items": {"$ref": "#/components/schemas/Class"},
                "maxItems": 500
              },
              "matching": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "description": "Classes matching the query."
              },
              "capped": {"type": "boolean"},
              "total": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "description": "Classes in the catalog."
              }
            },
            "required": ["query", "offset", "classes", "matching", "capped", "total"]
          },
          "Interval": {
            "type": "array",
            "description": "[start, end) in milliseconds of media time.",
            "items": {"type": "integer", "format": "int64", "minimum": 0, "maximum": 2147483647000},
            "minItems": 2,
            "maxItems": 2
          },
          "Progress": {
            "type": "object",
            "properties": {
              "last_position": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 2147483647000,
                "description": "Milliseconds of media time."
              },
              "watched": {"type": "array", "items": {"$ref": "#/components/schemas/Interval"}},
              "time_in_class": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 3162240000000,
                "description": "Milliseconds of wall time."
              }
            },
            "required": ["last_position", "watched", "time_in_class"]
          },
          "ProgressUpdate": {
            "type": "object",
            "properties": {
              "position": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 2147483647000,
                "description": "Milliseconds of media time."
              },
              "played": {
                "type": "array",
                "description": "[start, end] pairs with 0 <= start < end <= 2147483647000.",
                "maxItems": 10000,
                "items": {"$ref": "#/components/schemas/Interval"}
              },
              "added_time_in_class": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 31622400000,
                "description": "Milliseconds of wall time."
              },
              "changed_at": {
                "type": "integer",
                "format": "int64",
                "nullable": true,
                "description": "Milliseconds since 1970, within 20 years of now (later: now); 0: older than any stored position (kept only where none is)."
              },
              "sent_at": {
                "type": "integer",
                "format": "int64",
                "nullable": true,
                "description": "When the request was sent, by the clock of changed_at (milliseconds since 1970): when the two clocks are more than an hour apart, changed_at is read on the server's clock, moved by the difference between them (assumed the same when the change was made and when it was sent). Ignored without a changed_at time, within an hour of now, or more than 20 years from it."
              }
            },
            "required": ["position", "played", "added_time_in_class"]
          },
          "PercentsRequest": {
            "type": "object",
            "properties": {
              "classes": {
                "type": "array",
                "maxItems": 10000,
                "items": {
                  "type": "object",
                  "properties": {
                    "id": {"type": "string"},
                    "duration": {
                      "type": "integer",
                      "format": "int64",
                      "minimum": 0,
                      "maximum": 2147483647,
                      "description": "Seconds."
                    }
                  },
                  "required": ["id", "duration"]
                }
              }
            },
            "required": ["classes"]
          },
          "PercentsResponse": {
            "type": "object",
            "properties": {
              "percents": {
                "type": "object",
                "description": "Watched % by class id, for the asked classes with progress.",
                "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 100}
              }
            },
            "required": ["percents"]
          },
          "Completion": {
            "type": "object",
            "properties": {
              "lesson_id": {"type": "string"},
              "round": {"type": "integer", "format": "int64", "minimum": 1},
              "started": {
                "type": "integer",
                "format": "int64",
                "description": "Seconds since 1970."
              },
              "completed": {
                "type": "integer",
                "format": "int64",
                "description": "Seconds since 1970."
              }
            },
            "required": ["lesson_id", "round", "started", "completed"]
          },
          "CompletionRequest": {
            "type": "object",
            "properties": {
              "lesson_id": {
                "type": "string",
                "minLength": 1,
                "description": "At most 255 bytes of UTF-8."
              },
              "started": {
                "type": "integer",
                "format": "int64",
                "description": "Seconds since 1970, within 20 years of now."
              },
              "completed": {
                "type": "integer",
                "format": "int64",
                "description": "Seconds since 1970, within 20 years of now; not before started."
              },
              "round": {
                "type": "integer",
                "format": "int64",
                "minimum": 1,
                "maximum": 2147483647,
                "nullable": true,
                "description": "The round the lesson was finished in, as the device knew it: the event is filed there (one sent late, after another device's Start over, belongs to the round it was made in). None, or a round not reached yet: the current round."
              }
            },
            "required": ["lesson_id", "started", "completed"]
          },
          "CompletionResponse": {
            "type": "object",
            "properties": {
              "completion": {
                "allOf": [{"$ref": "#/components/schemas/Completion"}],
                "nullable": true
              }
            },
            "description": "The event; no completion when the round already had one."
          },
          "CompletionsResponse": {
            "type": "object",
            "properties": {
              "completions": {
                "type": "array",
                "items": {"$ref": "#/components/schemas/Completion"}
              },
              "round": {
                "type": "integer",
                "format": "int64",
                "minimum": 1,
                "description": "The current round (also when it has no events yet)."
              }
            },
            "required": ["completions", "round"]
          },
          "RoundResponse": {
            "type": "object",
            "properties": {"round": {"type": "integer", "format": "int64", "minimum": 1}},
            "required": ["round"]
          },
          "PicsumImage": {
            "type": "object",
            "properties": {
              "id": {"type": "string", "description": "The file name."},
              "author": {"type": "string"},
              "width": {"type": "integer", "format": "int64", "minimum": 0},
              "height": {"type": "integer", "format": "int64", "minimum": 0},
              "url": {"type": "string"},
              "download_url": {"type": "string"}
            },
            "required": ["id", "author", "width", "height", "url", "download_url"]
          },
          "LessonFile": {
            "type": "object",
            "properties": {
              "lessons": {
                "type": "array",
                "minItems": 1,
                "items": {
                  "type": "object",
                  "properties": {
                    "id": {"type": "integer"},
                    "content": {
                      "type": "array",
                      "items": {
                        "type": "object",
                        "properties": {"color": {}, "text": {"type": "string"}},
                        "required": ["text"]
                      }
                    },
                    "input": {
                      "type": "object",
                      "properties": {
                        "startIndex": {"type": "integer"},
                        "endIndex": {"type": "integer"}
                      },
                      "required": ["startIndex", "endIndex"]
                    }
                  },
                  "required": ["id", "content"]
                }
              }
            },
            "required": ["lessons"],
            "description": "Mimo's lesson file, as served from --lessons."
          }
        },
        "responses": {
          "BadRequest": {
            "description": "invalid_request: a body or parameter is wrong.",
            "content": {
              "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
            }
          },
          "Unauthorized": {
            "description": "invalid_token: no valid Bearer token.",
            "content": {
              "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
            }
          },
          "NotFound": {
            "description": "not_found.",
            "content": {
              "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
            }
          },
          "TooManyRequests": {
            "description": "too_many_attempts: over the limit a minute.",
            "content": {
              "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
            }
          },
          "TooLarge": {
            "description": "request_too_large: a body (or Content-Length) over 1 MiB, or over 16 KiB on sign-up, login, lookup and token.",
            "content": {
              "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
            }
          },
          "PreconditionFailed": {
            "description": "precondition_failed: If-Match names no tag of what a GET of this URI answers now (there is nothing to GET at /api/me/mobile and /api/lessons/rounds), or If-None-Match names it; nothing is changed.",
            "content": {
              "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
            }
          },
          "KeyReused": {
            "description": "idempotency_key_reused: the key came with another request.",
            "content": {
              "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
            }
          },
          "ServerError": {
            "description": "server_error.",
            "content": {
              "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
            }
          },
          "Unavailable": {
            "description": "temporarily_unavailable: the PostgreSQL store (--database) is away, or the server is out of file descriptors.",
            "content": {
              "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}
            }
          }
        }
      }
    }
    """#
}
