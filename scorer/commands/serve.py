"""``subdivision serve``: run the web app (``webui``) on waitress, a production WSGI server."""

from __future__ import annotations

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
MAX_THREADS = 64  # a reading can take a gigabyte for a large photo: more at once helps no table


def add_parser(subparsers) -> None:
    serve = subparsers.add_parser(
        "serve",
        help="run the web app (photo in, score breakdown out)",
        description="Run the web app on waitress. To reach it from phones at the table, "
        "serve on every interface with --host 0.0.0.0 and open http://<this computer's address>:PORT/.",
    )
    serve.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST}; 0.0.0.0 for the local network)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    serve.add_argument("--threads", type=int, default=4, help=f"worker threads, 1..{MAX_THREADS} (default 4)")
    serve.set_defaults(func=run_serve)


def run_serve(args) -> int:
    # Imported here: the library never needs the web layer, and the CLI's other commands
    # should not pay for loading Flask.
    import waitress

    from scorer.errors import UserError
    from webui import create_app
    from webui.api import warm_up_photo_reader

    if not 0 < args.port < 65536:
        raise UserError(f"--port must be 1..65535, not {args.port}")
    if not 1 <= args.threads <= MAX_THREADS:
        raise UserError(f"--threads must be 1..{MAX_THREADS}, not {args.threads}")
    app = create_app()
    try:
        server = waitress.create_server(
            app, host=args.host, port=args.port, threads=args.threads, ident="subdivision",
            # Bodies a little over the app's own limit still reach the app, which answers a
            # JSON 413; far larger ones are refused by waitress before they are buffered.
            max_request_body_size=2 * app.config["MAX_CONTENT_LENGTH"],
        )
    except OSError as err:
        raise UserError(f"cannot listen on {args.host}:{args.port}: {err.strerror or err}") from None
    except ValueError as err:  # waitress: a host it cannot resolve or parse
        raise UserError(f"cannot listen on {args.host}:{args.port}: {err}") from None
    except RuntimeError as err:  # the system would not start the worker threads
        raise UserError(f"cannot start {args.threads} worker threads: {err}") from None
    unready = warm_up_photo_reader()  # before saying it serves; a request meanwhile waits in the socket's queue
    app.config["PHOTO_READER_UNREADY"] = unready
    shown = "localhost" if args.host in ("127.0.0.1", "localhost") else args.host
    shown = f"[{shown}]" if ":" in shown else shown  # an IPv6 address in a URL
    print(f"subdivision: serving on http://{shown}:{args.port}/ (Ctrl+C to stop)", flush=True)
    if args.host in ("0.0.0.0", "::"):
        print(f"subdivision: from a phone on the same network open http://<this computer's address>:{args.port}/",
              flush=True)
    if unready:
        print(f"subdivision: photos cannot be read on this server, boards can still be entered by hand: {unready}",
              flush=True)
    server.run()
    return 0
