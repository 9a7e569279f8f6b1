extension TimeArgument {
  /// `routine help dates`: the grammar every time option takes (docs/dates.md says the same,
  /// with examples run by the tests).
  static let helpText = """
    Dates and times on the command line

    --at, --from, --to, --due and --occurrence take one grammar, in the user's time zone
    (--tz, the settings, $TZ); case and extra spaces are ignored. --now takes only ISO 8601
    with an offset: it stands for a machine's clock.

    An instant:
      2026-04-27T07:05+02:00   ISO 8601 with an offset, exactly that moment
      now                      now
      +90m, -2h, in 2 hours    elapsed time from now (m, min, minutes; h, hours)
      90 minutes ago           the same, backwards

    A day, then maybe a time (a day alone is its midnight):
      2026-04-27, 2026-04-27 07:05, 2026-04-27T07:05
      today, yesterday, tomorrow     tomorrow 9am, tomorrow 9 (a bare hour after a day)
      fri, friday, fri 12:00         a weekday: English name or its start (fri, th)
      next fri, last mon 9am         the nearest such day after (before) today, never
                                     today, whichever way the option looks
      +2d, -1w, in 3 days, 2 days ago
                               calendar days: the same wall-clock time that many dates
                               away, whatever daylight saving does in between

    A time of day:
      07:05, 7:05:30           24-hour clock
      9am, 7:30 pm             12-hour clock: 12am is 00:00, 12pm is 12:00
      noon, midnight           12:00 and 00:00 (midnight starts the day it names)

    Which day a time alone or a weekday means depends on the option:
      log --at, respond --occurrence  the latest such time at or before now
                                      (--at 23:30 just after midnight is last night;
                                      --at 'fri 07:00' on a Friday at 06:00, last week's)
      events, history, report --from/--to
                                      a time alone is today; a weekday the latest one
                                      at or before now
      agenda, export calendar --from/--to, tasks add --due, reminders add --at
                                      a time alone is today (reminders: the time it
                                      repeats at); a weekday the next one after now
                                      ('fri 12:00' on a Friday at 11:00 is today's)

    A wall-clock time that does not exist (a daylight-saving gap) is the first instant
    after the gap; one that exists twice is the first of the two (docs/time.md).
    Relative times reach at most 36600 days (about 100 years).

    """
}
