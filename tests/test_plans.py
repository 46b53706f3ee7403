"""rocmath.plans' recording, shared by the libraries: which calls become plans."""

from __future__ import annotations

import numpy as np

import rocmath as rm
from rocmath.launch import launch
from rocmath.plans import Plan, find_plan, planned_call, read_back, recorded, unreplayable


class _Handle:
    """What planned_call and find_plan need of a handle."""

    def __init__(self):
        self._plans = {}
        self.state_version = 0
        self.device = rm.null_stream().device


def _add_one(x: np.ndarray) -> None:
    x += 1


def _call(handle, key, body):
    return planned_call(handle, key, body, lambda replay, out: Plan(replay, (handle, key), handle))


def test_a_call_of_one_launch_becomes_a_plan_the_second_time_and_replays_it():
    h, x = _Handle(), rm.zeros(4)
    key, plan = find_plan("add", (h, 1))
    assert plan is None

    def body():
        launch(_add_one, x, name="add", record=recorded())

    _call(h, key, body)
    assert not isinstance(h._plans[key], Plan)  # seen once: no recording yet
    _call(h, key, body)
    again, plan = find_plan("add", (h, 1))
    assert again == key and isinstance(plan, Plan)
    plan.run((h, 1))
    rm.device_synchronize()
    assert np.array_equal(x.get(), np.full(4, 3.0))


def test_no_plan_for_several_launches_device_data_or_a_none_key():
    h, x = _Handle(), rm.zeros(4)

    def twice():
        launch(_add_one, x, name="add", record=recorded())
        launch(_add_one, x, name="add", record=recorded())

    def reads_back():
        unreplayable()
        launch(_add_one, x, name="add", record=recorded())

    for key, body in ((("twice",), twice), (("reads",), reads_back)):
        for _ in range(3):
            _call(h, key, body)
        assert not isinstance(h._plans[key], Plan)
    for _ in range(3):
        _call(h, None, twice)
    assert None not in h._plans
    rm.device_synchronize()
    assert np.array_equal(x.get(), np.full(4, 15.0))


def test_launches_of_a_nested_recorded_call_count_for_the_outer_one():
    h, x = _Handle(), rm.zeros(4)
    inner_key, outer_key = ("inner",), ("outer",)

    def inner():
        launch(_add_one, x, name="inner", record=recorded())

    def outer():
        launch(_add_one, x, name="outer", record=recorded())
        _call(h, inner_key, inner)

    for _ in range(3):
        _call(h, outer_key, outer)
    assert isinstance(h._plans[inner_key], Plan)  # one launch of its own
    assert not isinstance(h._plans[outer_key], Plan)  # its own and the inner one
    assert recorded() is None
    rm.device_synchronize()
    assert np.array_equal(x.get(), np.full(4, 6.0))


def test_a_plan_of_a_call_that_read_back_runs_only_while_the_reads_give_the_same():
    # read_back: the call decided its launch by device data it read; its plan reads again before it
    # runs and is not found when a value differs (or the read fails); a nested call's reads are the
    # outer call's too.
    h, x = _Handle(), rm.zeros(4)
    value = [b"a"]
    reads = []

    def reread():
        reads.append(1)
        if value[0] is None:
            raise RuntimeError("freed")
        return value[0]

    def inner():
        read_back(reread, reread())
        launch(_add_one, x, name="add", record=recorded())

    def outer():
        _call(h, ("inner",), inner)

    key = ("outer",)
    for _ in range(2):
        _call(h, key, outer)
    plan = h._plans[key]
    assert isinstance(plan, Plan) and len(plan.reads) == 1
    assert find_plan("outer", (h,))[1] is plan
    value[0] = b"b"
    assert find_plan("outer", (h,))[1] is None
    value[0] = None
    assert find_plan("outer", (h,))[1] is None
    value[0] = b"a"
    n = len(reads)
    assert find_plan("outer", (h,))[1] is plan and len(reads) == n + 1


def test_a_call_nested_in_a_recorded_one_is_not_replayed():
    # Its launch and reads must count for the outer call: a replay would not record them.
    h, x = _Handle(), rm.zeros(4)

    def inner():
        launch(_add_one, x, name="inner", record=recorded())

    for _ in range(2):
        _call(h, ("inner",), inner)
    assert find_plan("inner", (h,))[1] is not None
    seen = []

    def outer():
        seen.append(find_plan("inner", (h,))[1])
        launch(_add_one, x, name="outer", record=recorded())

    for _ in range(2):  # (recorded the second time)
        _call(h, ("outer",), outer)
    assert seen[0] is not None and seen[1] is None
