"""In CI a skipped test fails the run: every test there must run (an expected failure,
xfail, still counts as run)."""

from in_ci import in_ci

_skipped: list[str] = []


def pytest_collectreport(report):
    if report.skipped:  # a whole module skipped as it was collected (importorskip, allow_module_level)
        _skipped.append(report.nodeid)


def pytest_runtest_logreport(report):
    if report.skipped and not hasattr(report, "wasxfail"):
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    if in_ci() and _skipped and exitstatus == 0:
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter):
    if in_ci() and _skipped:
        terminalreporter.write_line(f"In CI no test may be skipped (skipped: {len(_skipped)}): "
                                    + ", ".join(_skipped[:10]), red=True)
