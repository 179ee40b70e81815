"""``subdivision serve``: options, and a real server process answering over HTTP."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import cv2
import pytest

from scorer.cli import build_parser, main
from scorer.vision import square_model


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_serve_defaults_to_localhost_8000():
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port) == ("127.0.0.1", 8000)
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "8080"])
    assert (args.host, args.port) == ("0.0.0.0", 8080)


def test_serve_runs_the_app_on_waitress(monkeypatch, capsys):
    import waitress

    seen = {}

    class FakeServer:
        def run(self):
            seen["ran"] = True

    def fake_create_server(app, **kwargs):
        seen["app"] = app
        seen.update(kwargs)
        return FakeServer()

    monkeypatch.setattr(waitress, "create_server", fake_create_server)
    square_model.load_square_model.cache_clear()
    assert main(["serve", "--host", "0.0.0.0", "--port", "8123"]) == 0
    assert (seen["host"], seen["port"]) == ("0.0.0.0", 8123)
    assert seen["app"].name == "webui" and seen["ran"]
    assert "http://0.0.0.0:8123/" in capsys.readouterr().out
    # the photo reader was warmed up before serving: every network loaded
    assert square_model.load_square_model.cache_info().currsize == len(set(square_model.MODEL_PATHS))


def test_a_server_whose_photo_reader_cannot_start_says_so_in_one_line_and_serves(monkeypatch, capsys):
    import waitress

    import scorer.reader

    class FakeServer:
        def run(self):
            pass

    def broken():
        raise cv2.error("OpenCV(5.1.0) onnx_importer.cpp:200: error: (-2:Unspecified error)\nin function 'parse'")

    apps = []
    monkeypatch.setattr(waitress, "create_server", lambda app, **kwargs: apps.append(app) or FakeServer())
    monkeypatch.setattr(scorer.reader, "warm_up", broken)
    assert main(["serve", "--port", "8124"]) == 0
    said = [line for line in capsys.readouterr().out.splitlines() if "photos cannot be read" in line]
    assert len(said) == 1 and "the photo reader's networks would not run (error: OpenCV(5.1.0)" in said[0]
    assert said[0].endswith("in function 'parse')")
    # a photo sent is answered 503 at once, as where there is no reader (not read to fail at its squares)
    monkeypatch.setattr(scorer.reader, "read_photo", lambda *a, **k: pytest.fail("a photo read by a reader that cannot run"))
    answer = apps[0].test_client().post("/api/read", data={"photo": (io.BytesIO(b"\xff\xd8\xff"), "a.jpg")},
                                        content_type="multipart/form-data")
    assert answer.status_code == 503
    assert answer.get_json()["error"] == "photo reading not available on this server; enter the board by hand"
    # tried again at the next photo: a reader that runs now reads it
    monkeypatch.setattr(scorer.reader, "warm_up", lambda: None)
    monkeypatch.setattr(scorer.reader, "read_photo", lambda *a, **k: pytest.fail("read"))
    with pytest.raises(pytest.fail.Exception, match="read"):
        apps[0].test_client().post("/api/read", data={"photo": (io.BytesIO(b"\xff\xd8\xff"), "a.jpg")},
                                   content_type="multipart/form-data")
    assert apps[0].config["PHOTO_READER_UNREADY"] is None
    monkeypatch.setitem(sys.modules, "scorer.reader", None)  # an installation without it: ImportError
    assert main(["serve", "--port", "8124"]) == 0
    assert "photos cannot be read on this server, boards can still be entered by hand: the photo reader could not be " \
           "imported" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["serve", "--port", "70000"], ["serve", "--threads", "0"], ["serve", "--threads", "2000"]])
def test_serve_bad_options_are_one_line_errors(argv, monkeypatch, capsys):
    import waitress

    def start(*args, **kwargs):
        raise AssertionError("a server started with a bad option")
    monkeypatch.setattr(waitress, "create_server", start)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("subdivision: error: ") and err.count("\n") == 1


@pytest.mark.parametrize("host", ["999.1.1.1", "no-such-host.invalid"])
def test_serve_on_a_host_it_cannot_listen_on_is_a_one_line_error(host, capsys):
    # Run apart, so that a server started by mistake is stopped by the timeout.
    done = subprocess.run([sys.executable, "-m", "scorer", "serve", "--host", host, "--port", str(free_port())],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith(f"subdivision: error: cannot listen on {host}") and done.stderr.count("\n") == 1
    assert "serving on" not in done.stdout


def test_serve_that_cannot_start_its_threads_is_a_one_line_error(monkeypatch, capsys):
    import waitress.task

    def refuse(*args, **kwargs):
        raise RuntimeError("can't start new thread")
    monkeypatch.setattr(waitress.task.ThreadedTaskDispatcher, "set_thread_count", refuse)
    assert main(["serve", "--port", str(free_port()), "--threads", "8"]) == 2
    assert capsys.readouterr().err == "subdivision: error: cannot start 8 worker threads: can't start new thread\n"


def test_serve_port_in_use_is_a_one_line_error(capsys):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("subdivision: error: cannot listen") and err.count("\n") == 1


def test_serve_process_answers_pages_and_api():
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorer", "serve", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(base + "/", timeout=2) as response:
                    page = response.read().decode()
                break
            except (urllib.error.URLError, ConnectionError):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"server did not start: {proc.stdout.read().decode()}") from None
                time.sleep(0.2)
        assert 'capture="environment"' in page
        request = urllib.request.Request(
            base + "/api/score", data=json.dumps({"board": ". . .\n. r2 .\n. . .\n"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            assert json.load(response)["players"]["red"]["total"] == 1
        bad = urllib.request.Request(base + "/api/score", data=b"{}", headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(bad, timeout=10)
        assert err.value.code == 400 and "board" in json.load(err.value)["error"]
        # a photo just over 25 MB: the app's JSON 413
        too_big = urllib.request.Request(base + "/api/read", data=b"\0" * 26_000_000,
                                         headers={"Content-Type": "multipart/form-data; boundary=x"})
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(too_big, timeout=30)
        assert err.value.code == 413 and "25 MB" in json.load(err.value)["error"]
        # far over it: refused by waitress before the app
        huge = urllib.request.Request(base + "/api/read", data=b"\0" * 60_000_000,
                                      headers={"Content-Type": "multipart/form-data; boundary=x"})
        try:
            urllib.request.urlopen(huge, timeout=30)
            raise AssertionError("a 60 MB upload was accepted")
        except urllib.error.HTTPError as refused:
            assert refused.code == 413
        except (ConnectionError, urllib.error.URLError) as closed:
            # the server may close the connection while the body is still being sent (not time out)
            reason = closed.reason if isinstance(closed, urllib.error.URLError) else closed
            assert isinstance(reason, ConnectionError), reason
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
