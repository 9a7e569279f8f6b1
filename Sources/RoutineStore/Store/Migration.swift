/// A named, append-only schema change. Migrations are never edited once released: a new change
/// is a new migration at the end of ``all``.
struct Migration {
  let name: String
  let sql: String

  static let all: [Migration] = [
    Migration(
      name: "0001-events",
      sql: """
        CREATE TABLE kinds (
          id INTEGER PRIMARY KEY,
          key TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL
        );
        CREATE TABLE events (
          id INTEGER PRIMARY KEY,
          at INTEGER NOT NULL,
          utc_offset INTEGER NOT NULL,
          kind_id INTEGER NOT NULL REFERENCES kinds(id),
          value REAL,
          note TEXT,
          -- Written with OR: an IN list makes SQLite build a temporary index on every insert.
          source TEXT NOT NULL CHECK (source = 'cli' OR source = 'import' OR source = 'notification')
        );
        -- An event's identity: the same instant, kind, value and note is the same event, so
        -- re-imports and repeated answers add nothing. It also serves queries by time.
        CREATE UNIQUE INDEX events_identity
          ON events(at, kind_id, ifnull(value, ''), ifnull(note, ''));
        """),
    Migration(
      name: "0002-planner",
      sql: """
        CREATE TABLE settings (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL
        );
        -- Pending notification requests, like the system's pending notifications.
        CREATE TABLE requests (
          id TEXT PRIMARY KEY,
          origin TEXT NOT NULL,
          category TEXT NOT NULL,
          title TEXT NOT NULL,
          body TEXT NOT NULL,
          trigger_type TEXT NOT NULL CHECK (trigger_type = 'calendar' OR trigger_type = 'date'),
          weekday INTEGER CHECK (weekday BETWEEN 1 AND 7),
          hour INTEGER CHECK (hour BETWEEN 0 AND 23),
          minute INTEGER CHECK (minute BETWEEN 0 AND 59),
          repeats INTEGER,
          fire_at INTEGER,
          event_kind TEXT,
          suggested_time INTEGER,
          confidence REAL
        );
        -- Notifications already delivered (written when they fire, cleared by `clear --delivered`).
        CREATE TABLE delivered (
          id INTEGER PRIMARY KEY,
          request_id TEXT NOT NULL,
          category TEXT NOT NULL,
          title TEXT NOT NULL,
          body TEXT NOT NULL,
          delivered_at INTEGER NOT NULL
        );
        """),
    Migration(
      name: "0003-delivery-and-reminders",
      sql: """
        -- Requests can hold every trigger (weekday sets, days of the month, one-time local
        -- times) and what delivery and answers need to know (docs/delivery.md).
        CREATE TABLE requests_new (
          id TEXT PRIMARY KEY,
          origin TEXT NOT NULL,
          category TEXT NOT NULL,
          title TEXT NOT NULL,
          body TEXT NOT NULL,
          trigger_type TEXT NOT NULL
            CHECK (trigger_type = 'calendar' OR trigger_type = 'date' OR trigger_type = 'local'),
          weekdays INTEGER NOT NULL DEFAULT 0,
          day_of_month INTEGER CHECK (day_of_month BETWEEN 1 AND 31),
          hour INTEGER CHECK (hour BETWEEN 0 AND 23),
          minute INTEGER CHECK (minute BETWEEN 0 AND 59),
          repeats INTEGER,
          fire_at INTEGER,
          local_day INTEGER,
          event_kind TEXT,
          suggested_time INTEGER,
          confidence REAL,
          reminder_id TEXT,
          look_back INTEGER,
          is_alarm INTEGER NOT NULL DEFAULT 0,
          link_id TEXT,
          link_name TEXT
        );
        INSERT INTO requests_new (id, origin, category, title, body, trigger_type, weekdays, hour,
          minute, repeats, fire_at, event_kind, suggested_time, confidence)
          SELECT id, origin, category, title, body, trigger_type,
            CASE WHEN weekday IS NULL THEN 0 ELSE 1 << weekday END, hour, minute, repeats,
            fire_at, event_kind, suggested_time, confidence
          FROM requests;
        DROP TABLE requests;
        ALTER TABLE requests_new RENAME TO requests;

        -- Reminders people define (docs/reminders.md); their requests are derived from them.
        CREATE TABLE reminders (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          type TEXT NOT NULL
            CHECK (type = 'activity' OR type = 'general' OR type = 'habit' OR type = 'task'),
          enabled INTEGER NOT NULL,
          -- The kind whose events count as doing it: indexed for the check after each event.
          kind_key TEXT,
          kind_name TEXT,
          preset TEXT,
          title TEXT,
          message TEXT,
          style TEXT NOT NULL,
          repetition TEXT,
          time INTEGER,
          window_end INTEGER,
          weekdays INTEGER,
          day_of_month INTEGER,
          once_day INTEGER,
          look_back INTEGER,
          link TEXT,
          habit_timing TEXT,
          timing_value INTEGER,
          minutes_before INTEGER,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX reminders_by_kind ON reminders(kind_key);
        CREATE TABLE habits (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL,
          kind_key TEXT NOT NULL UNIQUE,
          repetition TEXT NOT NULL,
          weekdays INTEGER NOT NULL,
          day_of_month INTEGER,
          window_start INTEGER,
          window_end INTEGER,
          created_at INTEGER NOT NULL
        );
        CREATE TABLE tasks (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL,
          kind_key TEXT NOT NULL,
          due_at INTEGER NOT NULL,
          due_offset INTEGER NOT NULL,
          done_at INTEGER,
          done_offset INTEGER,
          created_at INTEGER NOT NULL
        );
        -- Identifiers of removed reminders, habits and tasks: nothing brings them back.
        CREATE TABLE deleted_ids (
          id TEXT PRIMARY KEY,
          deleted_at INTEGER NOT NULL
        );
        -- One firing skipped because its activity was done (reverse smart reminders), until it
        -- has passed; restored_at undoes it.
        CREATE TABLE cancellations (
          request_id TEXT NOT NULL,
          occurrence INTEGER NOT NULL,
          reminder_id TEXT NOT NULL,
          event_kind TEXT NOT NULL,
          event_at INTEGER NOT NULL,
          event_offset INTEGER NOT NULL,
          created_at INTEGER NOT NULL,
          restored_at INTEGER,
          PRIMARY KEY (request_id, occurrence)
        );
        CREATE INDEX cancellations_by_reminder ON cancellations(reminder_id);
        -- Each firing claimed once, with what became of it (docs/delivery.md).
        CREATE TABLE deliveries (
          id INTEGER PRIMARY KEY,
          request_id TEXT NOT NULL,
          occurrence INTEGER NOT NULL,
          attempt INTEGER NOT NULL,
          outcome TEXT NOT NULL,
          late INTEGER NOT NULL DEFAULT 0,
          decided_at INTEGER NOT NULL,
          finished_at INTEGER,
          origin TEXT NOT NULL,
          category TEXT NOT NULL,
          title TEXT NOT NULL,
          body TEXT NOT NULL,
          event_kind TEXT,
          reminder_id TEXT,
          link_id TEXT,
          link_name TEXT,
          look_back INTEGER,
          is_alarm INTEGER NOT NULL DEFAULT 0,
          sink TEXT,
          reason TEXT,
          UNIQUE (request_id, occurrence, attempt)
        );
        CREATE INDEX deliveries_by_time ON deliveries(decided_at);
        -- Answers to notifications: the same answer to the same firing is stored once.
        CREATE TABLE answers (
          id INTEGER PRIMARY KEY,
          request_id TEXT NOT NULL,
          occurrence INTEGER NOT NULL,
          action TEXT NOT NULL,
          answered_at INTEGER NOT NULL,
          event_id INTEGER,
          message TEXT NOT NULL,
          UNIQUE (request_id, occurrence, action)
        );
        CREATE INDEX answers_by_time ON answers(answered_at);
        -- Small facts between runs: how far delivery has looked.
        CREATE TABLE state (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL
        );
        -- The routines the last plan learned, for the outlier check after each event.
        CREATE TABLE learned_routines (
          kind_key TEXT NOT NULL,
          kind_name TEXT NOT NULL,
          time INTEGER NOT NULL,
          weekdays INTEGER NOT NULL,
          tolerance INTEGER NOT NULL,
          threshold INTEGER NOT NULL
        );
        CREATE INDEX learned_routines_by_kind ON learned_routines(kind_key);
        """),
    Migration(
      name: "0004-reminder-changes",
      sql: """
        -- When a reminder was last added, edited or turned on: its earlier firings are not due.
        ALTER TABLE reminders ADD COLUMN changed_at INTEGER NOT NULL DEFAULT 0;
        UPDATE reminders SET changed_at = created_at;
        -- History lists deliveries by the time they were due.
        CREATE INDEX deliveries_by_occurrence ON deliveries(occurrence);
        -- Nothing wrote the delivered table of 0002; deliveries replaces it.
        DROP TABLE delivered;
        """),
    Migration(
      name: "0005-slots-and-corrections",
      sql: """
        -- A firing of a wall-clock reminder belongs to a local date and time (its slot): a slot is
        -- delivered at most once, whatever the zone did in between (docs/delivery.md). Instants
        -- (snooze and outlier alerts) have no slot and stay unique by their instant.
        -- Two slots can share an instant (a change of zone by a whole day, Honolulu to
        -- Kiritimati), so the instant is unique only for firings without a slot.
        CREATE TABLE deliveries_new (
          id INTEGER PRIMARY KEY,
          request_id TEXT NOT NULL,
          occurrence INTEGER NOT NULL,
          attempt INTEGER NOT NULL,
          outcome TEXT NOT NULL,
          late INTEGER NOT NULL DEFAULT 0,
          decided_at INTEGER NOT NULL,
          finished_at INTEGER,
          origin TEXT NOT NULL,
          category TEXT NOT NULL,
          title TEXT NOT NULL,
          body TEXT NOT NULL,
          event_kind TEXT,
          reminder_id TEXT,
          link_id TEXT,
          link_name TEXT,
          look_back INTEGER,
          is_alarm INTEGER NOT NULL DEFAULT 0,
          sink TEXT,
          reason TEXT,
          local_day INTEGER,
          slot INTEGER,
          -- `clear --delivered` forgets a delivery's words but keeps, for a week, that its firing
          -- was claimed, so that a clock set back cannot deliver it again.
          forgotten INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO deliveries_new (id, request_id, occurrence, attempt, outcome, late, decided_at,
          finished_at, origin, category, title, body, event_kind, reminder_id, link_id, link_name,
          look_back, is_alarm, sink, reason)
          SELECT id, request_id, occurrence, attempt, outcome, late, decided_at, finished_at, origin,
            category, title, body, event_kind, reminder_id, link_id, link_name, look_back,
            is_alarm, sink, reason
          FROM deliveries;
        DROP TABLE deliveries;
        ALTER TABLE deliveries_new RENAME TO deliveries;
        CREATE UNIQUE INDEX deliveries_by_slot ON deliveries(request_id, local_day, slot, attempt)
          WHERE local_day IS NOT NULL;
        CREATE UNIQUE INDEX deliveries_by_instant ON deliveries(request_id, occurrence, attempt)
          WHERE local_day IS NULL;
        CREATE INDEX deliveries_by_firing ON deliveries(request_id, occurrence);
        CREATE INDEX deliveries_by_time ON deliveries(decided_at);
        CREATE INDEX deliveries_by_occurrence ON deliveries(occurrence);
        ALTER TABLE cancellations ADD COLUMN local_day INTEGER;
        ALTER TABLE cancellations ADD COLUMN slot INTEGER;
        -- An answer whose logged event was undone no longer closes its firing: it can be
        -- answered again, and history says the first answer was undone.
        CREATE TABLE answers_new (
          id INTEGER PRIMARY KEY,
          request_id TEXT NOT NULL,
          occurrence INTEGER NOT NULL,
          action TEXT NOT NULL,
          answered_at INTEGER NOT NULL,
          event_id INTEGER,
          message TEXT NOT NULL,
          undone_at INTEGER
        );
        INSERT INTO answers_new (id, request_id, occurrence, action, answered_at, event_id, message)
          SELECT id, request_id, occurrence, action, answered_at, event_id, message FROM answers;
        DROP TABLE answers;
        ALTER TABLE answers_new RENAME TO answers;
        CREATE UNIQUE INDEX answers_once ON answers(request_id, occurrence, action)
          WHERE undone_at IS NULL;
        CREATE INDEX answers_by_time ON answers(answered_at);
        CREATE INDEX answers_by_event ON answers(event_id);
        -- A task's due time is a wall-clock time in the user's zone (due_at + due_offset is its
        -- local date and time), unless it was given with an offset: then it is that instant.
        ALTER TABLE tasks ADD COLUMN due_pinned INTEGER NOT NULL DEFAULT 0;
        """),
    Migration(
      name: "0006-tasks-by-name",
      sql: """
        -- A task is found by its id or its name (`tasks done Taxes`, a task reminder's link):
        -- both indexed, so that thousands of task reminders do not each scan every task.
        CREATE INDEX tasks_by_name ON tasks(kind_key);
        """),
    Migration(
      name: "0007-reminders-that-listen",
      sql: """
        -- Until when an act answers a firing (a learned routine's slot end, seconds since
        -- midnight), and what adaptation changed, in words (docs/reminders.md).
        ALTER TABLE requests ADD COLUMN act_until INTEGER;
        ALTER TABLE requests ADD COLUMN adaptation TEXT;
        ALTER TABLE deliveries ADD COLUMN act_until INTEGER;
        -- The rule that skipped a firing (outcome 'skipped'): superseded, backing-off, paused,
        -- daily-cap.
        ALTER TABLE deliveries ADD COLUMN rule TEXT;
        -- Deliveries of a reminder, found by its id: its record (what became of its firings).
        CREATE INDEX deliveries_by_reminder ON deliveries(reminder_id, occurrence);
        -- A reminder you defined opts into adapting its time and fading ('on'), or out of all
        -- adaptation ('off'); NULL: the default (backing off only).
        ALTER TABLE reminders ADD COLUMN adapt TEXT;
        -- What adaptation decided for each reminder at the last plan: its state, dose, time
        -- offset, strength and streak, and why. Keyed by a reminder's id or a learned request's
        -- id without its weekday (routine_WakeUp).
        CREATE TABLE adaptations (
          key TEXT PRIMARY KEY,
          -- 'off' turns a learned reminder's adaptation off ('routine reminders adapt').
          mode TEXT NOT NULL DEFAULT 'auto',
          state TEXT NOT NULL DEFAULT 'active',
          spacing INTEGER NOT NULL DEFAULT 1,
          anchor_day INTEGER,
          offset_minutes INTEGER NOT NULL DEFAULT 0,
          offset_since INTEGER,
          paused_since INTEGER,
          started_at INTEGER,
          resumed_at INTEGER,
          strength REAL,
          streak INTEGER,
          explanation TEXT,
          computed_day INTEGER,
          updated_at INTEGER NOT NULL
        );
        """),
    Migration(
      name: "0008-day-marks",
      sql: """
        -- Days something was done without a time of day (a habit tracker's checkmarks,
        -- docs/formats.md "Loop Habit Tracker"). Apart from events on purpose: everything that
        -- reads events reads a time of day, and these have none. Keyed by the kind's key, as
        -- habits are (no reference to kinds: a kind with only marks is not a kind of events).
        -- A new table only, so a store of an older version gains it without touching its rows.
        CREATE TABLE day_marks (
          kind_key TEXT NOT NULL,
          kind_name TEXT NOT NULL,
          -- The local date, as days since 1970-01-01.
          day INTEGER NOT NULL,
          source TEXT NOT NULL,
          PRIMARY KEY (kind_key, day)
        ) WITHOUT ROWID;
        """),
    Migration(
      name: "0009-change-journal",
      sql: """
        -- Every change a command made, for `routine undo` (docs/cli.md). Events a change added
        -- are the rows with ids in (events_before, events_after]: one transaction holds the
        -- write lock, so SQLite numbers them after every row before it. An import of millions
        -- is recorded by that range, not row by row.
        CREATE TABLE changes (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          -- The process that made it: one command's transactions are undone together.
          run TEXT NOT NULL,
          made_at INTEGER NOT NULL,
          command TEXT NOT NULL,
          events_before INTEGER NOT NULL,
          events_after INTEGER NOT NULL,
          events_added INTEGER NOT NULL DEFAULT 0,
          undone_at INTEGER
        );
        -- What reverts each row a change inserted, updated or deleted (a deleted row's content
        -- in it), replayed newest first; deleted events are in change_events.
        CREATE TABLE change_steps (
          id INTEGER PRIMARY KEY,
          change_id INTEGER NOT NULL,
          target TEXT NOT NULL,
          action TEXT NOT NULL,
          -- The row's key, so that a row added and then edited by one change counts once.
          row_key TEXT NOT NULL,
          revert TEXT NOT NULL
        );
        CREATE INDEX change_steps_by_change ON change_steps(change_id);
        -- Events a change deleted, as their rows were (a quarter of the size of SQL text, and
        -- restored by one statement).
        CREATE TABLE change_events (
          change_id INTEGER NOT NULL,
          id INTEGER NOT NULL,
          at INTEGER NOT NULL,
          utc_offset INTEGER NOT NULL,
          kind_id INTEGER NOT NULL,
          value REAL,
          note TEXT,
          source TEXT NOT NULL
        );
        CREATE INDEX change_events_by_change ON change_events(change_id);
        -- Since when changes are recorded, and whether the store held anything then (changes
        -- before it cannot be undone).
        INSERT OR REPLACE INTO state (key, value) VALUES ('journal_started', strftime('%s', 'now'));
        INSERT OR REPLACE INTO state (key, value)
          SELECT 'journal_predated', '1'
          WHERE EXISTS (SELECT 1 FROM events) OR EXISTS (SELECT 1 FROM reminders)
            OR EXISTS (SELECT 1 FROM habits) OR EXISTS (SELECT 1 FROM tasks);
        """),
    Migration(
      name: "0010-holds",
      sql: """
        -- A firing held while the person was away, busy or in quiet hours (docs/delivery.md
        -- "Held while you are away"): outcome 'held' until a run releases it (delivered late,
        -- released_at set) or gives it up (missed); why it was held stays.
        ALTER TABLE deliveries ADD COLUMN held_reason TEXT;
        ALTER TABLE deliveries ADD COLUMN released_at INTEGER;
        -- Every run looks at the held firings: found without reading the history.
        CREATE INDEX deliveries_held ON deliveries(occurrence) WHERE outcome = 'held';
        -- A reminder's own choice ('on', 'off'; NULL: alarms and task reminders ring, others
        -- may be held).
        ALTER TABLE reminders ADD COLUMN hold TEXT;
        """),
  ]
}
