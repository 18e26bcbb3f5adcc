"""Each phone in its own language (issue 22): the phone's cookie, else its browser's
Accept-Language, picks the words of everything the rig sends it -- ``GET /api/words`` (the page's
words, with each language's plural forms), snapshots, calls on the live channel (said once per
language in use), refusals -- and a phone that says nothing reads English, as before."""

import json

import pytest
from starlette.testclient import TestClient

from rig.core.msg import Msg
from rig.games import catalog_domain, games
from rig.shell.config import load_config
from rig.web.face import WebFace
from rig.web.language import COOKIE, domains, words_json
from rig.web.leaderboard import build_app as leaderboard_app
from rig.web.live import Live
from rig.web.pairing import Pairing
from rig.words import CHOICES, LANGUAGES, RIG_DOMAIN, Words, codes_of, localize
from sim.harness import Harness

BASE = "http://127.0.0.1:8080"
ORIGIN = {"Origin": BASE}
ES = {"Accept-Language": "es-AR,es;q=0.9,en;q=0.5"}
FR = {"Accept-Language": "fr-CH, fr;q=0.9"}


@pytest.fixture
def face(tmp_path):
    """A web face with no rig yet (its refusals need none)."""
    static = tmp_path / "static"
    static.mkdir()
    return WebFace(load_config(None).web, tmp_path / "recordings", static_dir=static)


@pytest.fixture
def rig(tmp_path):
    """The rig on the simulated table with its web face; yields (table, face, client)."""
    static = tmp_path / "static"
    static.mkdir()
    pairing = Pairing("http://192.168.1.20:8080/")
    records = tmp_path / "recordings"
    face = WebFace(load_config(None).web, records, pairing=pairing, static_dir=static)
    table = Harness(recordings_dir=records, display=face, phones=pairing,
                    players=["Ana", "Ben", "Caro"])
    table.start()
    face.rig = table.rig
    try:
        with TestClient(face.app, base_url=BASE) as client:
            yield table, face, client
    finally:
        table.stop()


def test_a_phone_reads_its_browsers_language_and_its_cookie_overrides_it(face):
    client = TestClient(face.app, base_url=BASE)
    assert client.get("/api/words").json()["language"] == "en"
    spanish = client.get("/api/words", headers=ES).json()
    assert spanish["language"] == "es" and spanish["languages"] == CHOICES
    assert spanish["words"]["rig.phone.pair"] == "Emparejar"
    refused = client.post("/api/command", json={}, headers=dict(ORIGIN, **ES))
    assert refused.status_code == 401
    assert refused.json()["error"] == Words("es").say("rig.web.not_paired")
    assert "emparejado" in refused.json()["error"]
    # The picker: French from now on, whatever the browser prefers.
    chosen = client.post("/api/language", json={"language": "fr"}, headers=dict(ORIGIN, **ES))
    assert chosen.status_code == 200 and chosen.json()["language"] == "fr"
    assert chosen.cookies[COOKIE] == "fr"
    assert client.get("/api/words", headers=ES).json()["language"] == "fr"
    refused = client.post("/api/command", json={}, headers=dict(ORIGIN, **ES))
    assert refused.json()["error"] == Words("fr").say("rig.web.not_paired")
    assert client.get("/api/state", headers=ES).json()["error"] == \
        Words("fr").say("rig.web.starting")
    # ?lang= asks for another language's words without choosing it.
    assert client.get("/api/words?lang=ro").json()["words"]["rig.phone.pair"] == "Asociază"
    assert client.get("/api/words").json()["language"] == "fr"


def test_a_phone_picks_the_rioplatense_variant_and_reads_es_elsewhere(face):
    """es_AR (docs/dev/words.md): picked, never guessed from the browser; Cleptómano's words in
    voseo, every other word the Latin American Spanish of es."""
    client = TestClient(face.app, base_url=BASE)
    assert client.get("/api/words", headers=ES).json()["language"] == "es"   # es-AR browser
    chosen = client.post("/api/language", json={"language": "es_AR"}, headers=dict(ORIGIN, **ES))
    assert chosen.status_code == 200 and chosen.cookies[COOKIE] == "es_AR"
    answer = client.get("/api/words", headers=ES).json()
    assert answer["language"] == "es_AR" and answer["languages"]["es_AR"] == "Español (rioplatense)"
    words = answer["words"]
    assert words["cleptomano.screen.press_start"] == "tocá INICIO"       # Cleptómano's voseo
    assert words["rig.phone.join"] == "Conectarse a la consola"          # the phones' es
    assert words["stolen_paintings.title"] == "Cuadros robados"
    neutral = client.get("/api/words?lang=es").json()["words"]
    assert neutral["cleptomano.screen.press_start"] == "pulsa INICIO"


def test_with_no_language_said_everything_stays_english(face):
    client = TestClient(face.app, base_url=BASE)
    answer = client.post("/api/command", json={}, headers=ORIGIN)
    assert answer.json()["error"].startswith("This phone is not paired")
    foreign = client.get("/api/words", headers={"Accept-Language": "de-DE, ja;q=0.8"})
    assert foreign.json()["language"] == "en"


def test_a_language_the_rig_does_not_speak_is_refused_with_the_choices(face):
    client = TestClient(face.app, base_url=BASE)
    for body in ({"language": "de"}, {"language": 3}, {}, {"language": "es", "x": 1}, []):
        answer = client.post("/api/language", json=body, headers=ORIGIN)
        assert answer.status_code == 400, body
        assert COOKIE not in answer.cookies
    answer = client.post("/api/language", json={"language": "de"}, headers=dict(ORIGIN, **ES))
    error = answer.json()["error"]
    assert "'de'" in error and "es (Español)" in error and "ro (Română)" in error
    assert error.startswith("el idioma")


@pytest.mark.parametrize("lang", sorted(LANGUAGES) + ["pseudo"])
def test_the_words_of_each_language_hold_every_code_of_the_rig_and_the_games(lang):
    answer = words_json(lang)
    assert set(domains()) == {RIG_DOMAIN} | {catalog_domain(g) for g in games()}
    expected = {code for domain in domains() for code, _ in codes_of(domain)}
    assert set(answer["words"]) == expected
    words = Words(lang)
    categories = set(words.plural_samples())
    for code, plural in codes_of(RIG_DOMAIN):
        entry = answer["words"][code]
        if plural:
            assert set(entry) == categories, code
            assert all(form and form != code for form in entry.values()), code
        else:
            assert isinstance(entry, str) and entry and entry != code, code
    json.dumps(answer)                      # what the page reads


def test_romanian_words_have_three_plural_forms_and_spanish_ones_are_spanish():
    ro = words_json("ro")["words"]["rig.phone.turns_n"]
    assert set(ro) == {"one", "few", "other"}
    assert ro["one"] == "{n} tură" and ro["other"] == "{n} de ture"
    assert words_json("es")["words"]["rig.phone.turns_n"]["one"] == "{n} turno"


def test_a_refusal_of_the_guard_is_said_in_the_phones_language(face):
    client = TestClient(face.app, base_url=BASE)
    rebound = client.get("/api/state", headers=dict(ES, Host="evil.example"))
    assert rebound.status_code == 421
    assert rebound.json()["error"] == Words("es").say("rig.web.foreign_host",
                                                      host="evil.example")
    foreign = client.post("/api/pair", json={}, headers=dict(FR, Origin="http://evil.example"))
    assert foreign.status_code == 403 and "boîtier" in foreign.json()["error"]


def test_the_snapshot_and_the_refusals_of_the_rig_are_in_each_phones_language(rig):
    table, face, client = rig
    for headers, lang in (({}, "en"), (ES, "es"), (FR, "fr")):
        assert client.get("/api/state", headers=headers).json() == \
            localize(face.state(), Words(lang))
    assert client.post("/api/pair", json={"code": "12", "name": "Ana"},
                       headers=dict(ORIGIN, **FR)).json()["error"].startswith("le code '12'")
    code = face.pairing.view().code
    wrong = "%06d" % ((int(code) + 1) % 10 ** 6)
    answer = client.post("/api/pair", json={"code": wrong, "name": "Ana"},
                         headers=dict(ORIGIN, Cookie=COOKIE + "=ro"))
    assert answer.status_code == 403 and answer.json()["error"].startswith("cod greșit (1 din 5")


def watch(client, headers):
    return client.websocket_connect(BASE.replace("http", "ws") + "/api/live",
                                    headers=dict(ORIGIN, **headers))


def _call_at(ws, t):
    """The call of time ``t`` the channel sends (the rig's own calls come first)."""
    while True:
        message = json.loads(ws.receive_text())
        if message["type"] == "call" and message["t"] == t:
            return message


def test_the_live_channel_sends_each_phone_its_language_at_once(rig):
    table, face, client = rig
    said = Msg("rig.night.switching", game="Stop Thief!")
    with watch(client, ES) as spanish, watch(client, FR) as french, watch(client, {}) as plain:
        for ws in (spanish, french, plain):
            assert json.loads(ws.receive_text())["type"] == "state"
        face.hear(12.5, said, "info")
        table.advance(0.2)
        calls = {lang: _call_at(ws, 12.5) for lang, ws in (("es", spanish), ("fr", french),
                                                        ("en", plain))}
    for lang, call in calls.items():
        assert call == {"type": "call", "t": 12.5, "text": Words(lang).text(said),
                        "severity": "info"}
    assert calls["es"]["text"] == "La consola pasa a Stop Thief!; todos los teléfonos la siguen."


def test_the_live_channel_says_each_push_once_per_language_in_use():
    said = []

    class Sink:
        def __init__(self, lang):
            self.lang = lang
            self.states, self.calls = [], []

        def offer_state(self, text):
            self.states.append(json.loads(text)["state"])

        def offer_call(self, text):
            self.calls.append(json.loads(text)["text"])

    class Loop:
        def call_soon_threadsafe(self, fn):
            fn()

        def call_later(self, delay, fn):
            pass

    live = Live(lambda: {"message": Msg("rig.phone.museum_ready").as_json(), "score": 1200},
                clock=iter([0.0, 1.0, 2.0]).__next__)
    original = live.state_message

    def counted(state, lang):
        said.append(lang)
        return original(state, lang)

    live.state_message = counted
    live.attach(Loop())
    sinks = [Sink("es"), Sink("es"), Sink("fr"), Sink("ro")]
    live.clients.update(sinks)
    live.call(3.0, Msg("rig.phone.pair_again"), "warning")
    assert sorted(said) == ["es", "fr", "ro"]
    for sink in sinks:
        words = Words(sink.lang)
        assert sink.states == [{"message": words.say("rig.phone.museum_ready"), "score": 1200}]
        assert sink.calls == [words.say("rig.phone.pair_again")]
    assert sinks[0].states[0]["message"] == "MUSEO LISTO – pulsa INICIO"


def test_the_leaderboard_speaks_the_readers_language():
    client = TestClient(leaderboard_app(lambda: {"players": [], "rigs": [], "matches": []}),
                        base_url="http://127.0.0.1:8090")
    words = client.get("/api/words", headers={"Accept-Language": "ro"}).json()
    assert words["language"] == "ro" and words["words"]["rig.board.standings"] == "Clasament"
    script = client.get("/dom.js")
    assert script.status_code == 200 and "function t(code, params)" in script.text
    page = client.get("/")
    assert 'src="/dom.js"' in page.text and 'data-t="rig.board.standings"' in page.text
    missing = client.get("/nowhere", headers={"Accept-Language": "fr"})
    assert missing.status_code == 404 and "classement" in missing.json()["error"]
