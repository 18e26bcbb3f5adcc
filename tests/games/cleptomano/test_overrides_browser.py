"""Issue 31 in a real headless Chromium: the guard's phone undoes a touch, the page asks why,
and the reason tapped (or typed) is what the recording keeps and the replay lists."""

import pytest

from rig.shell.storage import replay_file
from sim import phone as browser

# A real browser on the real clock: `make test-heavy`, one at a time (tests/test_phone_e2e.py).
pytestmark = [pytest.mark.skipif(browser.cannot_exist() is not None,
                                 reason=str(browser.cannot_exist())),
              pytest.mark.heavy]

GUARD_PHONE = "Ben's phone"


def test_the_phone_asks_why_after_an_undo_and_keeps_the_reason_tapped_or_typed(tmp_path):
    with browser.PhoneTable(tmp_path / "recordings") as rig, browser.Browser() as chromium:
        table = rig.table
        ben = chromium.phone("ben", 390, 844)
        ben.goto(rig.url)
        ben.fill("#pair-code", rig.screen.phones.code).fill("#pair-name", GUARD_PHONE)
        ben.click("#pair-go")
        ben.wait("#who", text=GUARD_PHONE)
        table.start_turn(at=table.now + 0.2, hand_in_at=table.now + 0.4)
        ben.wait("#thief", text="Ana")
        assert ben.texts("#why:visible") == []              # nothing asked yet

        table.touch("laser.4")
        table.advance(0.3)
        ben.click("#undo")
        ben.wait("#why")
        assert ben.texts("#why-reasons button") == [
            "misfire", "wrong player", "sensor fault", "rules dispute", "other"]
        ben.click('#why-reasons button:has-text("sensor fault")')
        ben.gone("#why")

        table.touch("laser.5")
        table.advance(0.3)
        ben.click("#undo")
        ben.wait("#why")
        ben.fill("#why-text", "  the rod\twobbles ").click('#why-form button[type="submit"]')
        ben.gone("#why")
        path = table.rig.recording_path
        recorded = table.recorded()
        assert ben.errors() == []
    whys = [(line["why"], line["by"]) for line in recorded if "why" in line]
    assert whys == [("sensor-fault", GUARD_PHONE), ("the rod wobbles", GUARD_PHONE)]
    listed = replay_file(path, overrides=True)["overrides"]
    assert [(o["kind"], o["laser"], o["by"], o["reason"]) for o in listed] == [
        ("undo", 4, GUARD_PHONE, "sensor-fault"), ("undo", 5, GUARD_PHONE, "the rod wobbles")]
