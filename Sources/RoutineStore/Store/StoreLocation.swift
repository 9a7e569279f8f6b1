/// Where the store lives: `--store PATH`, else `$ROUTINE_STORE`, else
/// `$XDG_DATA_HOME/routine/routine.db`, else `~/.local/share/routine/routine.db`.
public enum StoreLocation {
  /// The store path for the command-line option and environment, or `nil` when nothing says.
  public static func resolve(option: String?, environment: [String: String]) -> String? {
    if let option, !option.isEmpty { return option }
    if let path = environment["ROUTINE_STORE"], !path.isEmpty { return path }
    // The XDG spec ignores relative values.
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return data + "/routine/routine.db"
    }
    if let home = environment["HOME"], !home.isEmpty {
      return home + "/.local/share/routine/routine.db"
    }
    return nil
  }
}
