import RoutineCore

extension EventStore {

  /// The value of `key` in the store's state.
  public func state(_ key: String) throws -> String? {
    try read {
      let select = try connection.prepare("SELECT value FROM state WHERE key = ?")
      try select.bind(key, at: 1)
      return try select.step() ? select.text(at: 0) : nil
    }
  }

  /// Sets `key` to `value`.
  public func setState(_ key: String, _ value: String) throws {
    try write {
      let upsert = try connection.prepare(
        "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
      )
      try upsert.bind(key, at: 1)
      try upsert.bind(value, at: 2)
      try upsert.step()
    }
  }
}
