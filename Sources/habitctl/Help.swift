/// Usage text for every command (`habitctl COMMAND --help`, `habitctl help COMMAND`).
enum Help {
    /// The command that words name: "habit add" for habit's subcommands, else the first word.
    static func key(_ words: [String]) -> String {
        words.first == "habit" && words.count > 1 ? "habit \(words[1])" : words.first ?? ""
    }

    /// The help of a command, or the general help for a command without its own.
    static func text(_ key: String) -> String {
        commands[key] ?? main
    }

    /// `habitctl help [COMMAND]`: what `habitctl [COMMAND] --help` prints.
    static func run(_ args: [String], _ context: Context) throws(CLIError) {
        guard !args.isEmpty else { print(main); return }
        let key = key(args)
        guard CommandTable.all.contains(where: { $0.name == key || $0.name.hasPrefix(key + " ") }) else {
            throw .usage("unknown command '\(key)'\(Suggestion.hint(key, among: CommandTable.all.map(\.name))); see habitctl --help")
        }
        print(text(key))
    }

    static let main = """
        habitctl: habits and their ledger, from the shell. Built on libhabitcore.

        Usage: habitctl [--db PATH] [--json] COMMAND [ARGS]

        Commands:
          init                 create the store, set its time zone and day start
          habit add|list|show|edit|archive
          log HABIT [AMOUNT]   record that a habit was done, or an amount
          skip HABIT           excuse a day
          undo HABIT           cancel the latest entry of a day (or --entry ID)
          relapse HABIT        log a relapse of a quit habit (--note, --amount)
          quit HABIT           a quit habit: days since the last relapse, clean runs, allowance, saved
          timer start|pause|resume|stop|discard|status  time a duration habit live
          entries [HABIT]      list ledger entries
          days HABIT           the state of each day in a range
          today                what is due today, the current routine first
          streak HABIT|--global  current and longest streaks
          stats HABIT          streaks, completion rate and strength (or a measurement's readings)
          stats --group NAME   a group's ("system") day: day-based rate, quota progress, all-habit rate
          heatmap [HABIT]      daily scores, or a habit's days, as a grid (--svg FILE writes an image)
          vacation add|list|remove  excused date ranges
          snapshot today PATH  what today shows and its next changes, as a file for widgets
          credits              the credit ledger: sync-steps, spend, end, adjust, balance, day,
                               history, rules [set], account add
          awards               unlocked awards (evaluated first); progress, evaluate,
                               catalog [--raw], load FILE|-|--builtin
          referral code|redeem CODE  this store's referral code; a code from someone else
          events               what to notify about: --after CURSOR, --ack, --limit N
          changes              which habits and days writes reached: --after REVISION, --follow
          reminders add|edit|list|remove|next|fired|snooze|quiet  when to nudge, per habit
          shield add|list|state|next|emergency|snapshot  when apps are blocked
          sync state|changes|apply|with  merge the history of a person's devices
          hub init|user add|sync|status  sync through a PostgreSQL hub (--hub URL)
          proof submit|list|review|policy   photo proofs, their verdicts, review by hand
          plugin add|list|remove|test|configure  verifiers: --so PATH (shared object) or --exec PATH
          export               the whole store as JSON or JSON Lines
          backup FILE          a consistent copy of the store file (never overwrites FILE)
          import FILE|-        a habitcore export, Loop's CSV export (--loop), HabitBull's (--habitbull)
          demo                 a guided run against a store in a temporary folder
          completions bash|zsh|fish  the shell's completion script (installed by scripts/install.sh)
          manual               this help as a man page (roff), as installed in man1/habitctl.1
          help [COMMAND]       this help, or a command's (as COMMAND --help prints it)

        Global options:
          --db PATH   the store file (else $HABITCORE_DB, else ~/.local/share/habitcore/habits.db)
          --json      machine-readable output with a schema_version
          --help      usage of habitctl or of a command (habitctl help COMMAND says the same)
          --version   the library's version

        HABIT names a habit: #7 (or --id 7) is always the habit with id 7; a word is
        a name; a bare number (7, 007) is the habit with that id or that name, and is
        refused as ambiguous (exit 4, naming both) when those are two habits. Dates are
        YYYY-MM-DD; the default is today in the store's time zone.

        Exit codes: 0 success, 1 internal error, 2 usage error, 3 not found,
        4 conflict, 5 invalid input, 6 store unavailable (I/O, corrupt, busy, newer
        version, read-only), 7 not enough credits, 8 the output could not be written
        (stdout full or closed: what the command changed was committed). A write that
        exits non-zero, other than 8, committed nothing. SIGPIPE ends habitctl as it
        ends any tool on a pipe; Ctrl-C during export --output or import FILE cancels
        it cleanly (130, nothing written). proof submit exits with its verdict, apart from these:
        0 approved, 10 needs review, 11 rejected, 12 error. Under --json an error is
        a JSON object on stderr: {"schema_version":1,"error":{"code","exit_code","message"}}.
        """

    static let commands: [String: String] = [
        "proof": """
        Usage: habitctl proof SUBCOMMAND

          submit HABIT FILE [--taken-at MS] [--media-type T] [--metadata JSON] [--keep-copy]
                   runs the built-in checks and the policy's verifiers; an approved proof
                   logs the habit for today. Exits with the verdict: 0 approved,
                   10 needs review, 11 rejected, 12 error (a plugin crashed, hung or
                   failed); a failed call itself keeps the general codes 1-8 and prints
                   to stderr (a JSON object under --json)
          list [HABIT]                 every verdict: verifiers, decisions, reviews
          evidence ID [--out FILE]     the photo a proof keeps (--keep-copy, or synced with
                                       sync --evidence), to FILE or to stdout when it is not a terminal
          review ID --approve|--reject --reason TEXT [--reviewer NAME]
          policy [HABIT] --verifiers ID,ID [--mode all|any] [--approve 0.8] [--review 0.5]
                 [--window HH:MM-HH:MM] [--many-per-day]     (no HABIT: the store's policy)
        """,
        "plugin": """
        Usage: habitctl plugin add --so PATH [--in-process] | --exec PATH [--id ID] [--timeout MS] [--config FILE|-]
               habitctl plugin configure ID FILE|- | --clear
               habitctl plugin list | remove ID | test ID EVIDENCE

        Shared objects export hc_plugin_entry (include/habitcore_plugin.h); executables
        read one JSON request on stdin and print one JSON verdict line (see
        examples/plugins). A shared object runs isolated, in habitcore-plugin-runner
        (installed with libhabitcore.so): a crash, hang or abort in it is an error
        verdict naming the signal, never a crash of habitctl. --in-process loads a
        trusted one (proofcheck) into habitctl itself: faster, but its crash is ours.
        Isolated shared objects and executables are killed after --timeout (default
        10000 ms) or past 1 MiB of output. Settings are a JSON object the plugin reads
        (from a file or - for stdin). A bare name with no such file here (--so
        proofcheck) is the plugin installed with the library: libhabitcore_NAME.so in
        habitcore/plugins/ beside libhabitcore.so, or beside it. proofcheck is the
        reference plugin: see docs/PROOFCHECK.md.
        """,
        "awards": """
        Usage: habitctl awards [SUBCOMMAND]

        Awards are rules over the ledger, unlocked once each with the day and the entry
        that crossed the threshold; an undo never takes one back.

          (none) | list                 evaluate as of today, then list unlocked awards
          evaluate [--date D]           unlock what was crossed by that day; print the new ones
          progress [--date D]           every award: its value and threshold, or when unlocked
          catalog [--raw]               the rules (--raw: the JSON document load reads)
          load FILE|-                   replace the catalogue (docs/FORMATS.md); a bad rule is
                                        refused (exit 5) naming the rule and the field
          load --builtin                the built-in catalogue again
        """,
        "referral": """
        Usage: habitctl referral code | redeem CODE

          code          this store's referral code (8 characters, no look-alikes)
          redeem CODE   record a code from someone else; counted by the referral awards.
                        A code counts once (exit 4 again, and for the store's own code)
        """,
        "events": """
        Usage: habitctl events [--after CURSOR] [--ack] [--limit N] [--follow]

        Award unlocked, streak milestone and daily target reached events, recorded once
        each. Keep the printed cursor and pass it as --after next time. With --ack, only
        events no reader has acknowledged, acknowledged at once: with several readers,
        each event goes to exactly one. With --follow, prints each event as a JSON line
        as writes of any process bring it, until SIGPIPE, SIGTERM or Ctrl-C; resume with
        --after the last id printed.
        """,
        "changes": """
        Usage: habitctl changes [--after REVISION] [--limit N] [--merged] [--follow]

        Which habits and days the writes after a store revision reached, oldest first,
        from at most N writes (default 1000): an area (habit, entry, proof, vacation,
        setting, zone, credit, award, shield), a habit or none, and the dates (null or
        "every day": no bound). Keep the printed cursor and pass it as --after next
        time. --merged: one change per area and habit for each run of touching dates.
        With --follow, prints each change as a JSON line as any process commits it,
        until SIGPIPE, SIGTERM or Ctrl-C; resume with --after the last revision
        printed. Waiting costs no CPU (an inotify watch on the store's files).
        """,
        "shield": """
        Usage: habitctl shield add NAME --habits H[,H...] [--start HH:MM|daystart] [--cutoff HH:MM|midnight] [--days D]
                   [--any] [--until-done] [--no-session] [--no-excused] [--fail-open] [--budget N/week|N/month]
                   [--key KEY] [--effective DATE]
               habitctl shield list [--date DATE]
               habitctl shield state [--at T]
               habitctl shield next [--at T] [--hours N]
               habitctl shield emergency RULE [--minutes N] [--reason TEXT]
               habitctl shield snapshot PATH [--at T]

        A shield blocks the apps its --key names (the app maps the key) from --start
        (default the day start) to --cutoff (default midnight) on --days (daily,
        days:mon,fri, every:N, monthdays:1,15), until its habits are done (all, or
        --any); a habit that requires proof counts once a proof is accepted. A
        window whose cutoff is not after its start crosses midnight and belongs to
        the day it starts. A running credit session lifts it (unless --no-session),
        an excused day does (unless --no-excused), and --until-done keeps it past the
        cutoff. Emergency unlocks are limited by --budget (none: unlimited; exit 7
        past it). T is a local date-time (2026-06-05T07:30), a time today (07:30),
        or an instant (2026-06-05T05:30Z). RULE is #3 (the rule with id 3) or the name
        of a rule in force; a bare number is the rule with that id or that name
        (refused as ambiguous, exit 4, when those are two rules). Instants print in
        local time with the offset (2026-06-05T07:30:00+02:00), in UTC under --json.
        snapshot writes the state, the next day's changes and the revision to PATH
        atomically, for an extension.
        """,
        "snapshot": """
        Usage: habitctl snapshot today PATH [--at T]

        Writes what today shows at T (default now) to PATH as JSON, atomically, for a
        widget or a watch face that cannot open the store: today's due habits with
        their progress, state and current streak, the day score, the last eight weeks
        as a grid, the routine now, and every change up to the next day start (routine
        boundaries, the day start) with the state after it, and the store revision.
        The format is in docs/FORMATS.md. Opens the store read-only. T as for shield.
        """,
        "hub": """
        Usage: habitctl hub init --hub URL
               habitctl hub user add NAME [--service] --hub URL   (password on stdin)
               habitctl hub sync [--act-as USER] --hub URL
               habitctl hub status [--act-as USER] --hub URL

        A hub is a PostgreSQL database that a person's devices sync through. URL is a
        libpq connection string or URI (or HABITCORE_HUB): who connects is who syncs,
        each user as a PostgreSQL role of their own. init (a superuser) creates or
        migrates the hub's schema and hides from each user what PostgreSQL would show
        of the others (docs/SCALE.md); user add (admin) creates a user's role
        (--service: a trusted server's role, which acts for one user at a time with
        --act-as); sync sends the hub what it lacks and merges what this store lacks,
        and is safe to run again after any failure; status counts what the hub holds
        for the user. habitctl loads libhabitcore_hub.so.1 from beside libhabitcore.so
        (exit 6 without it).
        """,
        "sync": """
        Usage: habitctl sync state [--out FILE]
               habitctl sync changes [--since STATE_FILE] [--evidence] [--out FILE]
               habitctl sync apply FILE|-
               habitctl sync with OTHER_DB [--evidence]
               habitctl sync canonical

        Devices that each keep a store merge their histories: every device may log,
        edit and undo offline, and after they exchange changes in any order, any
        number of times, they hold the same records. state writes what this store has
        seen; on another device, changes --since that file writes what it lacks
        (without --since: everything); apply merges such a changeset here (validated
        whole first: a damaged one is exit 5 and changes nothing; a record this store
        cannot apply yet, naming a record not yet arrived or a time zone this machine's
        tz database lacks, waits and is applied by a later apply). with merges two
        store files both ways (say one in a synced folder). States and changesets are
        binary: they go to --out FILE, or to stdout when it is not a terminal; --json
        prints them in hex with a summary instead. canonical prints the synced records
        as text that does not depend on this store's own ids: two devices that have
        exchanged everything print the same bytes (compare them with cmp or diff).

        A store restored from an older copy of its file, or copied to a second device,
        and then written to, is found at its next exchange and renamed as the header's
        "Forks" rule says: it takes back from its peers what it lost, and keeps what it
        wrote since.

        What merges: habits and their fields (the later edit wins per field), settings
        versions (schedule, target, proof, group, archived: per effective day), entries and undos (all kept; an entry undone on two devices
        is cancelled once), vacations (a removal removes the one it saw), the time
        zone, day start and week start, proofs' records and verdicts, credit accounts,
        spends, step reports and rules (earnings are recounted on each device), award
        unlocks (the earliest crossing stands), shield rules and emergency unlocks.
        Proofs' photos travel with --evidence. What stays on each device: events,
        reminders, unlock sessions, plugins, retry keys.
        """,
        "reminders": """
        Usage: habitctl reminders add HABIT --at HH:MM [--days mon,wed,fri] [--message TEXT] [--quiet defer|drop]
               habitctl reminders edit RULE [--at HH:MM] [--days D|due] [--message TEXT|--no-message] [--quiet M] [--from DATE]
               habitctl reminders list [HABIT] [--date DATE]
               habitctl reminders remove RULE [--from DATE]
               habitctl reminders next [--from T] [--to T] [--pending | --claim]
               habitctl reminders fired RULE DATE AT
               habitctl reminders snooze RULE DATE AT [--minutes N | --until T]
               habitctl reminders quiet [HH:MM-HH:MM | off] [--from DATE]

        Reminders at a local time of day, on the habit's due days (or --days), computed
        in the store's time zone and day start: a time the clocks skip fires at the
        first minute after the gap, a time they repeat fires once. A day that is done,
        skipped, on vacation, not due, or whose weekly/monthly/times quota is met, gets none.
        Quiet hours move a reminder to their end (--quiet defer) or drop it (drop).
        Changes and removals apply from --from (today by default) on, never to days
        already lived.

        next lists the reminders between two instants (default: now to 24 hours on);
        --pending leaves out those delivered; --claim records the rest as delivered at
        once, so with several processes asking, each reminder goes to exactly one.
        fired records one delivery by hand; snooze gives a reminder a new instant
        (default 10 minutes on). RULE DATE AT are the rule id, date and instant next
        prints. Instants: now, +30m, -2h, +1d, UTC milliseconds, or 2026-03-08T07:00Z
        (or +01:00). They print in local time with the offset, in UTC under --json.
        """,
        "credits": """
        Usage: habitctl credits SUBCOMMAND [--account NAME] ...

        Minutes earned by steps and habits, spent to unlock apps. An append-only
        ledger: the balance is the fold of its entries.

          sync-steps --steps N [--date D]   a health source's step total for a day
                                            (only a higher total earns; 100 steps = 1 min)
          spend MINUTES [--reason R] [--no-unlock]
                                            spend now, opening an unlock session and
                                            printing its id, the SESSION that end takes
                                            (exit 7 and nothing written when short)
          end SESSION [--at TIME]           end an unlock session early (now, or at TIME:
                                            HH:MM local or 2026-03-10T07:30Z); its unused
                                            whole minutes, rounded up, are refunded to the
                                            day it ends on; queued sessions move up
                                            (exit 4 if it had already ended)
          adjust MINUTES --reason R         a correction by hand (may be negative)
          balance                           what can be spent now; unlock state
          day [DATE]                        steps, earned, spent, expired, available
          history [--from D] [--to D]       the entries (default: the last 30 days)
          rules                             the rules in force and their dates
          rules set --steps-per-minute N | --habit H --minutes M | --expiry day|carry
                    [--from DATE]           a rule from today (or a later date) on
          account add NAME                  another account (--account NAME elsewhere)

        Instants print in local time with the offset, in UTC under --json.
        """,
        "init": """
        Usage: habitctl init [--timezone TZ] [--day-start HH:MM] [--week-start mon|sun|...]
               [--off-days skip|break] [--miss-allowance N] [--open-day previous|zero]
               [--routines HH:MM,HH:MM,HH:MM]
        Creates the store if needed and shows its settings. TZ is an IANA name
        (Europe/Paris), UTC, or +hh:mm. With --day-start 03:00, 01:30 counts for the day before.
        Streak rules for the store (habits without their own, and the global streaks):
          --miss-allowance N  missed days in a row a streak survives (0..31; 1: never miss twice)
          --open-day          today not done yet: shows the streak as it was (previous) or 0 (zero)
          --off-days          a day with nothing due: skipped, or breaks the perfect-day streak
        --routines: when the morning, day and evening start, after the day start (05:00,11:00,18:00).
        """,
        "habit add": """
        Usage: habitctl habit add NAME [--kind checkmark|counter|duration|measurement|quit]
               [--target N] [--at-most] [--unit U] [--group G] [--routine morning|day|evening|anytime]
               [--schedule S] [--start DATE] [--proof] [--miss-allowance N|store] [--open-day previous|zero|store]
               [--description TEXT] [--question TEXT] [--colour #RRGGBB] [--icon ICON] [--position N]
        Schedules: daily, days:mon,wed,fri, every:3, monthdays:1,15, weekly:3, monthly:5, times:2/3.
        A quit habit's schedule is its allowance (daily: none, weekly:N, monthly:N relapses at
        most) and its --target what a clean day saves, in --unit (see habitctl quit --help).
        --description, --question, --colour (or --color), --icon and --position are what an app
        shows: the question asked each day, a #RRGGBB colour, an icon name or emoji, the order.
        --miss-allowance and --open-day set the habit's own streak rules (see init --help);
        'store' follows the store's.
        Duration targets are in seconds.
        """,
        "habit list": "Usage: habitctl habit list [--all]\nActive habits; --all includes archived ones.",
        "habit show": "Usage: habitctl habit show HABIT",
        "habit edit": """
        Usage: habitctl habit edit HABIT [--name N] [--target N] [--at-most|--at-least] [--unit U|--no-unit]
               [--group G|--no-group] [--routine R] [--schedule S] [--start DATE] [--proof|--no-proof]
               [--miss-allowance N|store] [--open-day previous|zero|store]
               [--description TEXT] [--question TEXT] [--colour #RRGGBB] [--icon ICON] [--position N]
               [--from DATE]
        An empty --description, --question, --colour or --icon ("") clears it.
        Schedule, target and direction, group and proof apply from --from DATE (default
        today; an earlier day re-judges the days from it, which the output names);
        earlier days keep theirs. Streak rules, start and the other fields apply to the
        whole history: they say how it is read, not what happened.
        """,
        "habit archive": """
        Usage: habitctl habit archive HABIT [--restore] [--from DATE]
        Nothing is due from --from DATE (default today) while archived; a stretch archived
        and then restored is excused.
        """,
        "log": """
        Usage: habitctl log HABIT [AMOUNT|-] [--total] [--date DATE] [--note TEXT] [--source manual|import|health|proof]
                            [--key KEY]
        Without AMOUNT: the habit was done. With AMOUNT: it adds to the day; with --total
        it is a source's cumulative figure for the day (the highest counts). '-' reads AMOUNT from stdin.
        --key KEY makes a retry safe: a key that already logged an entry of this habit logs
        nothing more and reports that entry (exit 0). Exit 0 means the entry is committed.
        """,
        "skip": "Usage: habitctl skip HABIT [--date DATE] [--note TEXT]\nExcuses the day.",
        "undo": """
        Usage: habitctl undo HABIT [--date DATE] | habitctl undo --entry ID
        Appends an entry cancelling the latest standing entry of the day (or entry ID). Nothing is deleted.
        """,
        "relapse": """
        Usage: habitctl relapse HABIT [--note TEXT] [--amount N] [--key KEY]
        Logs a relapse of a quit habit (habit add --kind quit) now: an entry, undone with
        habitctl undo like any. --amount: what was smoked, spent, eaten (0 or more). Then
        shows where the habit stands, as habitctl quit does. Exit 0 means it is committed.
        """,
        "quit": """
        Usage: habitctl quit HABIT [--at-ms MS]
        Where a quit habit stands now (or at UTC ms MS): days and time since the last relapse,
        the current and best clean runs, relapses this period against the allowance (the
        habit's schedule: daily none, weekly:N, monthly:N) and what the clean days saved
        (the habit's target per clean day, in its unit).
        """,
        "timer": """
        Usage: habitctl timer start HABIT [--auto] [--at-ms MS]
               habitctl timer pause|resume|stop|discard TIMER [--at-ms MS]
               habitctl timer status [TIMER] [--at-ms MS]
        Times a duration habit now (or at UTC ms MS). TIMER is a timer's id (as start prints
        it), or a habit's name for its one timer running or paused. A stopped timer adds its
        whole seconds to the day it started, once, however many devices stop it; discard
        adds nothing. --auto stops it by itself when it reaches the day's target. status
        without TIMER lists the timers running or paused. Several may run at once.
        """,
        "entries": "Usage: habitctl entries [HABIT] [--from DATE] [--to DATE]\nDefault range: the last 30 days.",
        "days": "Usage: habitctl days HABIT [--from DATE] [--to DATE]\nEach day's value and state. Default: the last 14 days.",
        "export": """
        Usage: habitctl export [--format json|jsonl] [--output FILE]
               habitctl export --loop --output FOLDER [--date DATE]
        --output writes record by record (memory stays flat however large the store) into a
        file that appears whole or not at all, with a progress line when stderr is a terminal.
        --loop writes Loop Habit Tracker's Habits.csv and Checkmarks.csv (rows up to DATE, default today).
        """,
        "backup": """
        Usage: habitctl backup FILE

        Copies the whole store into FILE, a new SQLite file (0600) that opens with
        --db FILE like the original. Consistent while other processes write (SQLite's
        online backup). FILE must not exist (exit 4). Registered plugins come along,
        as every table does; an export leaves them out.
        """,
        "import": """
        Usage: habitctl import FILE|- [--format json|jsonl]
               habitctl import --loop HABITS_CSV CHECKMARKS_CSV
               habitctl import --loop ZIP|DB|-
               habitctl import --habitbull CSV|-
        --loop reads Loop Habit Tracker's CSV export (its zip as Loop hands it over, notes
        kept, or its Habits.csv and Checkmarks.csv) or its full backup (.db); --habitbull HabitBull's CSV export.
        Without --format the layout is read from the text. All or nothing: every record is
        checked as the command that writes it would be; a bad line is named and nothing is written.
        A FILE of JSON Lines is read a line at a time; a progress line shows when stderr is a terminal.
        """,
        "today": """
        Usage: habitctl today [--date DATE] [--at TIME]
        The habits due, grouped by routine, the routine of now (or of TIME) first, with
        their state. TIME: HH:MM in the store's zone, or an instant like 2026-03-10T07:30Z
        (then the date is that instant's day unless --date is given).
        """,
        "streak":
            "Usage: habitctl streak HABIT [--date DATE] | habitctl streak --global [--date DATE]\nCurrent, longest and best streaks; --global: perfect days and active days.",
        "stats": "Usage: habitctl stats HABIT [--date DATE] [--days N]\n       habitctl stats --group NAME [--date DATE]\n"
            + "Streaks, completion rate over N days (30), with the current unfinished period counted as its fraction beside it, and strength;\n"
            + "for a measurement, its readings. With --group: the group's day read both ways: day-based habits only (quota habits left\n"
            + "out, their period progress beside it, as Numu shows a system's day), and every habit with quota habits due until met.",
        "heatmap": """
        Usage: habitctl heatmap [HABIT] [--days 200] [--date DATE] [--svg FILE] [--title TEXT]
        Daily scores as a grid of weeks, or with HABIT that habit's days (done, skipped, logged,
        nothing); colour only on a terminal, without a non-empty NO_COLOR, and not with TERM=dumb.
        --svg FILE also writes the grid as an image: a title (the habit's name, or the store's;
        --title sets another), month and weekday labels, and a legend.
        """,
        "vacation":
            "Usage: habitctl vacation add FROM TO [--habit HABIT] | vacation list | vacation remove ID\nExcused days: they neither break a streak nor add to it.",
        "completions": "Usage: habitctl completions bash|zsh|fish\nPrints the completion script for that shell (commands, subcommands, global options).",
        "manual": "Usage: habitctl manual\nPrints the man page, made from this help text: habitctl manual | man -l -",
        "demo":
            "Usage: habitctl demo [--db PATH]\nCreates habits, logs two weeks, undoes an entry and reads it all back.\nWithout --db the store goes in a new temporary folder.",
    ]
}
