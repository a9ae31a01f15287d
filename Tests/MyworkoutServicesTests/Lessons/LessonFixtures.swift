import MyworkoutCore

@testable import MyworkoutServices

// `repositoryRoot` is defined once for this test target, in Catalog/CatalogFixtures.swift.

/// The course shipped with the app.
let shippedCourse = repositoryRoot + "/Assets/lessons.json"

/// The brief's own sample, kept outside the repository.
let mimoSample = repositoryRoot + "/../shared/data/mimo/example.json"

/// Writes `json` to a file in a fresh temporary directory and loads it.
func loadLessons(_ json: String) async throws -> Result<LessonCourse, LessonLoadError> {
  try await withTemporaryDirectory { directory throws in
    let path = directory + "/lessons.json"
    put(Array(json.utf8), at: path)
    return Result { () throws(LessonLoadError) in try LessonFile.load(path: path) }
  }
}

/// A file of one lesson whose id, content and input are given as raw JSON.
func oneLesson(id: String = "1", content: String, input: String? = nil) -> String {
  let inputField = input.map { #", "input": \#($0)"# } ?? ""
  return #"{"lessons": [{"id": \#(id), "content": \#(content)\#(inputField)}]}"#
}
