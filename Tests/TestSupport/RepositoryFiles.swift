import Foundation

/// The repository's own files, found from this file's path (Tests/TestSupport/…), so
/// tests and bench helpers run from any directory.
public enum Repository {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the repository

    /// `path`, relative to the repository's root.
    public static func url(_ path: String) -> URL { root.appendingPathComponent(path) }
}

/// `Fixtures/`: hex vector tables (JSON), btsnoop captures, tshark's dissections and
/// example files. Paths are relative to `Fixtures/`, e.g. `"att/vectors.json"`.
public enum FixtureFiles {
    public static let directory = Repository.url("Fixtures")

    public static func url(_ path: String) -> URL { directory.appendingPathComponent(path) }

    /// The file's bytes: a btsnoop capture for `BTSnoop.records(in:)`, say.
    public static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(path)))
    }

    public static func text(_ path: String) throws -> String {
        try String(contentsOf: url(path), encoding: .utf8)
    }

    /// A JSON file decoded as `type`: a vector table is `[SomeVector].self`.
    public static func decode<T: Decodable>(_ type: T.Type, from path: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: url(path)))
    }

    /// A JSON array of objects read untyped (tshark's dissections, `*.att.json`).
    public static func records(_ path: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url(path)))
        guard let records = object as? [[String: Any]] else { throw NotRecords(path: path) }
        return records
    }

    /// The names of the files in `folder` that end with `suffix`, sorted (none when the
    /// folder is missing: the test that counts them then fails and says so).
    public static func names(in folder: String, endingWith suffix: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url(folder).path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted()
    }

    /// A JSON file that is not an array of objects.
    public struct NotRecords: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "Fixtures/\(path) is not a JSON array of objects" }
    }
}
