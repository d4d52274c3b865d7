"""Credits, awards, referrals and events."""
from __future__ import annotations

import datetime

import pytest

import habitcore
from habitcore import CreditKind, RuleKind, Store


def test_steps_earn_and_spending_checks_the_balance(store: Store) -> None:
    today = store.today()
    sync = store.sync_steps(2500, today)
    assert (sync.date, sync.steps, sync.earned_now, sync.day_earned) == (today, 2500, 25, 25)  # 100 steps a minute
    assert store.sync_steps(2000, today).earned_now == 0  # not higher: nothing
    assert store.balance() == 25
    with pytest.raises(habitcore.InsufficientCreditsError) as caught:
        store.spend(30, "games")
    assert caught.value.code == habitcore.Status.INSUFFICIENT and "25 available" in caught.value.message
    assert store.balance() == 25
    spend = store.spend(10, "games", unlock=True)
    state = store.unlock_state()
    assert state.active and state.session_id > 0
    refund = store.end_session(state.session_id)
    assert 0 < refund <= 10
    store.adjust(-3, "correction")
    day = store.credit_day(today)
    assert (day.earned, day.spent, day.adjusted, day.refunded) == (25, 10, -3, refund)
    assert day.available == 25 - 10 - 3 + refund == store.balance()
    kinds = [e.kind for e in store.credit_entries(today, today)]
    assert kinds == [CreditKind.EARN, CreditKind.SPEND, CreditKind.REFUND, CreditKind.ADJUST]
    assert spend in [e.id for e in store.credit_entries(today, today)]


def test_accounts_and_rules(store: Store) -> None:
    kids = store.create_account("kids")
    assert store.find_account("KIDS") == kids
    with pytest.raises(habitcore.ConflictError):
        store.create_account("kids")
    read = store.create_habit("Read")
    store.set_credit_rule(RuleKind.STEPS_PER_MINUTE, 50, account=kids)
    store.set_credit_rule(RuleKind.HABIT_MINUTES, 15, habit=read, account=kids)
    rules = store.credit_rules(kids)
    assert [(r.kind, r.value) for r in rules] == [(RuleKind.STEPS_PER_MINUTE, 50), (RuleKind.HABIT_MINUTES, 15)]
    assert store.sync_steps(1000, account=kids).earned_now == 20
    entry = store.done(read)
    assert store.balance(kids) == 35
    store.undo(entry)
    assert store.balance(kids) == 20
    with pytest.raises(habitcore.NotFoundError):
        store.balance(999)


def test_awards_referrals_and_events(store: Store) -> None:
    progress = list(store.award_progress())
    assert len(progress) > 10 and not any(a.unlocked for a in progress)
    read = store.create_habit("Read")
    store.done(read)
    unlocked = list(store.evaluate_awards())
    assert unlocked, "creating a habit and completing it unlocks the first awards"
    assert all(a.unlocked and a.unlocked_date == store.today() for a in unlocked)
    assert {a.metric for a in unlocked} >= {habitcore.Metric.HABITS_CREATED}
    assert list(store.evaluate_awards()) == []  # once, ever
    assert [a.id for a in store.unlocked_awards()] == [a.id for a in unlocked]
    assert '"rules"' in store.award_catalog() or store.award_catalog().startswith("{")

    code = store.referral_code()
    assert len(code) == 8
    with pytest.raises(habitcore.ConflictError):
        store.redeem_referral(code)

    events = list(store.events())
    awards = [e for e in events if e.kind == habitcore.EventKind.AWARD_UNLOCKED]
    assert {e.award_id for e in awards} == {a.id for a in unlocked}
    taken = list(store.events(ack=True))
    assert [e.id for e in taken] == [e.id for e in events]
    assert list(store.events(ack=True)) == []
    assert list(store.events(after_id=events[-1].id)) == []


def test_award_catalog_load_and_reset(store: Store) -> None:
    with pytest.raises(habitcore.InvalidArgumentError) as caught:
        store.load_award_catalog('{"rules": [{"id": "x", "metric": "nonsense"}]}')
    assert caught.value.message
    before = store.award_catalog()
    store.reset_award_catalog()
    assert store.award_catalog() == before


def test_day_argument_types(store: Store) -> None:
    with pytest.raises(TypeError):
        store.credit_day(20260308)  # type: ignore[arg-type]
    assert store.credit_day(datetime.datetime(2026, 3, 8, 12, 0)).date == datetime.date(2026, 3, 8)


def test_active_habits_leave_archived_ones_out(store: Store) -> None:
    store.load_award_catalog(
        '{"format": "habitcore-awards", "version": 1, "rules": ['
        '{"id": "made-3", "title": "Three made", "metric": "habits_created", "threshold": 3},'
        '{"id": "active-3", "title": "Three active", "metric": "active_habits", "threshold": 3}]}'
    )
    habits = [store.create_habit(name) for name in ("Read", "Run", "Swim")]
    store.archive_habit(habits[2])
    assert [a.id for a in store.evaluate_awards()] == ["made-3"]
    values = {a.id: (a.metric, a.value) for a in store.award_progress()}
    assert values == {"made-3": (habitcore.Metric.HABITS_CREATED, 3), "active-3": (habitcore.Metric.ACTIVE_HABITS, 2)}
    store.create_habit("Write")
    assert [a.id for a in store.evaluate_awards()] == ["active-3"]
