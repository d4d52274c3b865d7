"""habitcore for Python: a ctypes binding over include/habitcore.h.

    with habitcore.Store("habits.db") as store:
        water = store.create_habit("Water", kind="counter", target=8, unit="glasses")
        entry = store.log(water, amount=3, date="2026-11-22")
        store.undo(entry)

The library is found through $HABITCORE_LIB (a path to libhabitcore.so), else
the system's library search path.
"""
import collections
import ctypes
import datetime
import os
from collections import namedtuple

ABI_VERSION = 2  # HC_ABI_VERSION this binding was written for (habitcore 1.0)

OK = 0
DAY_NONE = -2147483648
DATE_BUFSIZE = 11
KINDS = {"checkmark": 1, "counter": 2, "duration": 3, "measurement": 4}
DIRECTIONS = {"at_least": 1, "at_most": 2}
ROUTINES = {"anytime": 0, "morning": 1, "day": 2, "evening": 3}
ENTRY_KINDS = {"done": 1, "amount": 2, "total": 3, "skip": 4, "undo": 5}
SOURCES = {"manual": 1, "import": 2, "health": 3, "proof": 4}
FORMATS = {"json": 1, "jsonl": 2}
DAY_DONE, DAY_SKIPPED, DAY_HAS_ENTRIES = 0x1, 0x2, 0x4
EPOCH = datetime.date(1970, 1, 1)


class HabitcoreError(Exception):
    """A failed call: .status is the HC_E_* code, the message the library's words."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class InvalidArgument(HabitcoreError): pass
class NotFound(HabitcoreError): pass
class Conflict(HabitcoreError): pass
class StoreError(HabitcoreError): pass
class Misuse(HabitcoreError): pass


_ERRORS = {1: InvalidArgument, 2: NotFound, 3: Conflict, 4: StoreError, 5: StoreError, 6: StoreError,
           7: StoreError, 8: Misuse, 10: StoreError}


class HabitOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("kind", ctypes.c_int32), ("name", ctypes.c_char_p),
                ("target", ctypes.c_double), ("direction", ctypes.c_int32), ("routine", ctypes.c_int32),
                ("group_name", ctypes.c_char_p), ("unit", ctypes.c_char_p), ("schedule", ctypes.c_char_p),
                ("start_day", ctypes.c_int32), ("proof_required", ctypes.c_int32)]


class Habit(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("kind", ctypes.c_int32), ("id", ctypes.c_int64),
                ("name", ctypes.c_char_p), ("target", ctypes.c_double), ("direction", ctypes.c_int32),
                ("routine", ctypes.c_int32), ("group_name", ctypes.c_char_p), ("unit", ctypes.c_char_p),
                ("schedule", ctypes.c_char_p), ("start_day", ctypes.c_int32), ("proof_required", ctypes.c_int32),
                ("archived_day", ctypes.c_int32), ("created_at_ms", ctypes.c_int64)]


class EntryInput(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("kind", ctypes.c_int32), ("habit_id", ctypes.c_int64),
                ("day", ctypes.c_int32), ("source", ctypes.c_int32), ("value", ctypes.c_double),
                ("at_ms", ctypes.c_int64), ("note", ctypes.c_char_p)]


class Entry(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("kind", ctypes.c_int32), ("id", ctypes.c_int64),
                ("habit_id", ctypes.c_int64), ("day", ctypes.c_int32), ("source", ctypes.c_int32),
                ("value", ctypes.c_double), ("recorded_at_ms", ctypes.c_int64), ("undoes", ctypes.c_int64),
                ("undone_by", ctypes.c_int64), ("note", ctypes.c_char_p)]


class DayState(ctypes.Structure):
    _fields_ = [("day", ctypes.c_int32), ("flags", ctypes.c_uint32), ("value", ctypes.c_double),
                ("entry_count", ctypes.c_int32), ("reserved", ctypes.c_int32)]


class PluginEvidence(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("reserved", ctypes.c_int32), ("path", ctypes.c_char_p),
                ("bytes", ctypes.POINTER(ctypes.c_uint8)), ("size", ctypes.c_int64), ("media_type", ctypes.c_char_p),
                ("sha256", ctypes.c_char_p), ("taken_at_ms", ctypes.c_int64), ("received_at_ms", ctypes.c_int64),
                ("habit_id", ctypes.c_int64), ("habit_name", ctypes.c_char_p), ("metadata_json", ctypes.c_char_p)]


class PluginVerdict(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("outcome", ctypes.c_int32), ("confidence", ctypes.c_double),
                ("reason_code", ctypes.c_char * 64), ("message", ctypes.c_char * 512), ("signals", ctypes.c_char * 512)]


class ProofInput(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("flags", ctypes.c_uint32), ("habit_id", ctypes.c_int64),
                ("path", ctypes.c_char_p), ("bytes", ctypes.POINTER(ctypes.c_uint8)), ("size", ctypes.c_int64),
                ("media_type", ctypes.c_char_p), ("taken_at_ms", ctypes.c_int64), ("metadata_json", ctypes.c_char_p)]


class ProofResult(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("outcome", ctypes.c_int32), ("proof_id", ctypes.c_int64),
                ("entry_id", ctypes.c_int64), ("confidence", ctypes.c_double), ("day", ctypes.c_int32),
                ("reserved", ctypes.c_int32), ("reason_code", ctypes.c_char * 64), ("message", ctypes.c_char * 512)]


class ProofPolicy(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("mode", ctypes.c_int32), ("approve_threshold", ctypes.c_double),
                ("review_threshold", ctypes.c_double), ("window_start", ctypes.c_int32), ("window_end", ctypes.c_int32),
                ("one_per_day", ctypes.c_int32), ("reserved", ctypes.c_int32), ("verifiers", ctypes.c_char_p)]


# int32_t (*hc_verify_callback)(const hc_plugin_evidence *, hc_plugin_verdict *, void *user_data)
VERIFY_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.POINTER(PluginEvidence), ctypes.POINTER(PluginVerdict), ctypes.c_void_p)
OUTCOMES = {1: "approved", 2: "rejected", 3: "needs_review", 4: "error"}
ProofOutcome = collections.namedtuple("ProofOutcome", "outcome proof_id entry_id confidence reason message")


def _load():
    lib = ctypes.CDLL(os.environ.get("HABITCORE_LIB", "libhabitcore.so"))
    P, I32, I64, U32, D = ctypes.c_void_p, ctypes.c_int32, ctypes.c_int64, ctypes.c_uint32, ctypes.c_double
    S = ctypes.c_char_p
    signatures = {
        "hc_abi_version": (I32, []),
        "hc_version_string": (S, []),
        "hc_status_string": (S, [I32]),
        "hc_last_error_message": (S, []),
        "hc_free": (None, [P]),
        "hc_date_parse": (I32, [ctypes.POINTER(I32), S]),
        "hc_date_format": (I32, [ctypes.c_char_p, I32, I32]),
        "hc_store_open": (I32, [ctypes.POINTER(P), S, U32]),
        "hc_store_close": (I32, [P]),
        "hc_store_set_timezone": (I32, [P, S]),
        "hc_store_set_day_start": (I32, [P, I32]),
        "hc_store_today": (I32, [ctypes.POINTER(I32), P]),
        "hc_store_begin": (I32, [P]),
        "hc_store_commit": (I32, [P]),
        "hc_store_rollback": (I32, [P]),
        "hc_store_export": (I32, [ctypes.POINTER(P), P, I32]),
        "hc_store_import": (I32, [P, S, I32]),
        "hc_habit_create": (I32, [ctypes.POINTER(I64), P, ctypes.POINTER(HabitOptions)]),
        "hc_habit_get": (I32, [ctypes.POINTER(ctypes.POINTER(Habit)), P, I64]),
        "hc_habit_free": (None, [ctypes.POINTER(Habit)]),
        "hc_entry_append": (I32, [ctypes.POINTER(I64), P, ctypes.POINTER(EntryInput)]),
        "hc_entry_undo": (I32, [ctypes.POINTER(I64), P, I64]),
        "hc_entry_list_open": (I32, [ctypes.POINTER(P), P, I64, I32, I32]),
        "hc_entry_list_count": (I32, [ctypes.POINTER(I64), P]),
        "hc_entry_list_get": (I32, [ctypes.POINTER(ctypes.POINTER(Entry)), P, I64]),
        "hc_entry_list_free": (None, [P]),
        "hc_habit_day_total": (I32, [ctypes.POINTER(D), P, I64, I32]),
        "hc_habit_day_states": (I32, [ctypes.POINTER(DayState), I64, ctypes.POINTER(I64), P, I64, I32, I32]),
        "hc_verifier_register": (I32, [P, S, S, VERIFY_CALLBACK, P]),
        "hc_proof_policy_set": (I32, [P, I64, ctypes.POINTER(ProofPolicy)]),
        "hc_proof_submit": (I32, [ctypes.POINTER(ProofResult), P, ctypes.POINTER(ProofInput)]),
        "hc_proof_review": (I32, [ctypes.POINTER(I64), P, I64, I32, S, S]),
        # Each struct's defaults come from the library, never from a copy here.
        "hc_habit_options_init": (I32, [ctypes.POINTER(HabitOptions), U32]),
        "hc_entry_input_init": (I32, [ctypes.POINTER(EntryInput), U32]),
        "hc_proof_input_init": (I32, [ctypes.POINTER(ProofInput), U32]),
        "hc_proof_result_init": (I32, [ctypes.POINTER(ProofResult), U32]),
        "hc_proof_policy_init": (I32, [ctypes.POINTER(ProofPolicy), U32]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    if lib.hc_abi_version() != ABI_VERSION:
        raise ImportError(f"libhabitcore ABI {lib.hc_abi_version()}, this binding needs {ABI_VERSION}")
    return lib


_lib = _load()
version = _lib.hc_version_string().decode()


def _check(status):
    if status != OK:
        message = _lib.hc_last_error_message().decode("utf-8", "replace")
        raise _ERRORS.get(status, HabitcoreError)(status, message)


def _defaults(struct, initialise):
    """A struct filled by its hc_<struct>_init: the header's defaults, sized for this binding's struct."""
    value = struct()
    _check(initialise(ctypes.byref(value), ctypes.sizeof(struct)))
    return value


def _text(value):
    return None if value is None else value.encode("utf-8")


def to_day(date):
    """A datetime.date or 'YYYY-MM-DD' as the library's day number."""
    if isinstance(date, datetime.date):
        return (date - EPOCH).days
    day = ctypes.c_int32()
    _check(_lib.hc_date_parse(ctypes.byref(day), _text(date)))
    return day.value


def from_day(day):
    return EPOCH + datetime.timedelta(days=day)


DayInfo = namedtuple("DayInfo", "date value done skipped entries")
EntryInfo = namedtuple("EntryInfo", "id habit_id date kind value source undoes undone_by note")


class Store:
    """An open habitcore store. Use as a context manager, or call close()."""

    def __init__(self, path, readonly=False):
        handle = ctypes.c_void_p()
        _check(_lib.hc_store_open(ctypes.byref(handle), _text(os.fspath(path)), 1 if readonly else 0))
        self._handle = handle
        self._callbacks = {}

    def close(self):
        if self._handle:
            _lib.hc_store_close(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def set_timezone(self, name):
        _check(_lib.hc_store_set_timezone(self._handle, _text(name)))

    def today(self):
        day = ctypes.c_int32()
        _check(_lib.hc_store_today(ctypes.byref(day), self._handle))
        return from_day(day.value)

    def transaction(self):
        store = self

        class _Transaction:
            def __enter__(self):
                _check(_lib.hc_store_begin(store._handle))

            def __exit__(self, kind, value, traceback):
                _check((_lib.hc_store_commit if kind is None else _lib.hc_store_rollback)(store._handle))

        return _Transaction()

    def create_habit(self, name, kind="checkmark", target=1.0, direction="at_least", routine="anytime",
                     group=None, unit=None, schedule=None, start=None, proof_required=False):
        options = _defaults(HabitOptions, _lib.hc_habit_options_init)
        options.kind, options.name, options.target = KINDS[kind], _text(name), float(target)
        options.direction, options.routine = DIRECTIONS[direction], ROUTINES[routine]
        options.group_name, options.unit, options.schedule = _text(group), _text(unit), _text(schedule)
        if start is not None:
            options.start_day = to_day(start)
        options.proof_required = 1 if proof_required else 0
        habit_id = ctypes.c_int64()
        _check(_lib.hc_habit_create(ctypes.byref(habit_id), self._handle, ctypes.byref(options)))
        return habit_id.value

    def habit(self, habit_id):
        pointer = ctypes.POINTER(Habit)()
        _check(_lib.hc_habit_get(ctypes.byref(pointer), self._handle, habit_id))
        try:
            h = pointer.contents
            return {"id": h.id, "name": h.name.decode(), "kind": h.kind, "target": h.target,
                    "unit": h.unit.decode() if h.unit else None, "schedule": h.schedule.decode(),
                    "start": from_day(h.start_day), "archived": h.archived_day != DAY_NONE}
        finally:
            _lib.hc_habit_free(pointer)

    def log(self, habit_id, amount=None, total=None, date=None, skip=False, source="manual", note=None):
        """Appends an entry: done (no amount), an amount, a total, or a skip. Returns its id."""
        if skip:
            kind, value = "skip", 0.0
        elif total is not None:
            kind, value = "total", float(total)
        elif amount is not None:
            kind, value = "amount", float(amount)
        else:
            kind, value = "done", 0.0
        entry = _defaults(EntryInput, _lib.hc_entry_input_init)
        entry.kind, entry.habit_id, entry.source, entry.value, entry.note = ENTRY_KINDS[kind], habit_id, SOURCES[source], value, _text(note)
        if date is not None:
            entry.day = to_day(date)
        entry_id = ctypes.c_int64()
        _check(_lib.hc_entry_append(ctypes.byref(entry_id), self._handle, ctypes.byref(entry)))
        return entry_id.value

    def undo(self, entry_id):
        undo_id = ctypes.c_int64()
        _check(_lib.hc_entry_undo(ctypes.byref(undo_id), self._handle, entry_id))
        return undo_id.value

    def day_total(self, habit_id, date):
        total = ctypes.c_double()
        _check(_lib.hc_habit_day_total(ctypes.byref(total), self._handle, habit_id, to_day(date)))
        return total.value

    def days(self, habit_id, start, end):
        first, last = to_day(start), to_day(end)
        capacity = max(0, last - first + 1)
        buffer = (DayState * max(capacity, 1))()
        count = ctypes.c_int64()
        _check(_lib.hc_habit_day_states(buffer, capacity, ctypes.byref(count), self._handle, habit_id, first, last))
        return [DayInfo(from_day(s.day), s.value, bool(s.flags & DAY_DONE), bool(s.flags & DAY_SKIPPED), s.entry_count)
                for s in buffer[:count.value]]

    def entries(self, habit_id, start, end):
        handle = ctypes.c_void_p()
        _check(_lib.hc_entry_list_open(ctypes.byref(handle), self._handle, habit_id, to_day(start), to_day(end)))
        try:
            count = ctypes.c_int64()
            _check(_lib.hc_entry_list_count(ctypes.byref(count), handle))
            kinds = {v: k for k, v in ENTRY_KINDS.items()}
            sources = {v: k for k, v in SOURCES.items()}
            result = []
            for index in range(count.value):
                pointer = ctypes.POINTER(Entry)()
                _check(_lib.hc_entry_list_get(ctypes.byref(pointer), handle, index))
                e = pointer.contents
                result.append(EntryInfo(e.id, e.habit_id, from_day(e.day), kinds[e.kind], e.value, sources[e.source],
                                        e.undoes or None, e.undone_by or None, e.note.decode() if e.note else None))
            return result
        finally:
            _lib.hc_entry_list_free(handle)

    def export(self, fmt="json"):
        text = ctypes.c_void_p()
        _check(_lib.hc_store_export(ctypes.byref(text), self._handle, FORMATS[fmt]))
        try:
            return ctypes.string_at(text).decode("utf-8")
        finally:
            _lib.hc_free(text)

    def import_(self, text, fmt="json"):
        _check(_lib.hc_store_import(self._handle, _text(text), FORMATS[fmt]))

    # Proofs ------------------------------------------------------------------

    def register_verifier(self, verifier_id, version, judge):
        """Plugs a Python function in as a verifier. judge(data: bytes, media_type: str)
        returns (outcome, confidence, reason, message) with outcome one of OUTCOMES' names.
        An exception in judge becomes an error verdict, never a crash."""
        codes = {name: code for code, name in OUTCOMES.items()}

        def callback(evidence, out, _user_data):
            try:
                e = evidence.contents
                data = ctypes.string_at(e.bytes, e.size)
                outcome, confidence, reason, message = judge(data, e.media_type.decode())
                v = out.contents
                v.outcome = codes[outcome]
                v.confidence = confidence
                v.reason_code = reason.encode()[:63]
                v.message = message.encode()[:511]
                return 0
            except Exception:  # the verdict stays an error
                return 1

        function = VERIFY_CALLBACK(callback)
        self._callbacks[verifier_id] = function  # ctypes callbacks must outlive their registration
        _check(_lib.hc_verifier_register(self._handle, _text(verifier_id), _text(version), function, None))

    def set_proof_policy(self, verifiers, habit_id=0, approve=0.8, review=0.5):
        policy = _defaults(ProofPolicy, _lib.hc_proof_policy_init)
        policy.approve_threshold, policy.review_threshold = approve, review
        policy.verifiers = _text(",".join(verifiers))
        _check(_lib.hc_proof_policy_set(self._handle, habit_id, ctypes.byref(policy)))

    def submit_proof(self, habit_id, data=None, path=None):
        proof = _defaults(ProofInput, _lib.hc_proof_input_init)
        proof.habit_id = habit_id
        if path is not None:
            proof.path = _text(path)
        else:
            buffer = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
            proof.bytes = ctypes.cast(buffer, ctypes.POINTER(ctypes.c_uint8))
            proof.size = len(data)
        result = _defaults(ProofResult, _lib.hc_proof_result_init)
        _check(_lib.hc_proof_submit(ctypes.byref(result), self._handle, ctypes.byref(proof)))
        return ProofOutcome(OUTCOMES[result.outcome], result.proof_id, result.entry_id or None, result.confidence,
                            result.reason_code.decode(), result.message.decode())
