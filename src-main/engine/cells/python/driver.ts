/**
 * The Python half of a Python cell runtime, run once per isolate after Pyodide has loaded (into a
 * fresh dict, never into `sys.modules`). It gives cells IPython's notebook semantics: one namespace
 * for the episode, the last expression's value shown, output captured (bounded), tracebacks that
 * point at the cell's own lines.
 *
 * Stops. When the host stops a cell (episode finished, budget, interrupt), the `robo` call in flight
 * returns the stop reply, or the interrupt buffer raises SIGINT in pure-Python code. Either way the
 * driver turns on `sys.monitoring` LINE and JUMP events whose callback raises `CellStopped` in every
 * frame that is not the driver's, so an `except BaseException:` body raises again on its first line
 * and no handler can keep the cell alive. That keeps the namespace when it works; the host's
 * backstop (discard the isolate when the cell is still running shortly after a stop) covers a cell
 * that broke the mechanism itself (e.g. by seizing every monitoring tool id).
 *
 * The `robo` object and its results are roboPy.ts, spliced in before the cell runner. Every code
 * object of the module (its functions, its classes' methods, closures within) counts as the
 * driver's, where a stop does not raise.
 */

import { ROBO_PY } from './roboPy';

/** Stdlib modules imported before the memory snapshot is taken, so a runtime starts with them loaded. */
export const PREIMPORT_PY = `
import ast, builtins, codeop, dataclasses, inspect, io, itertools, json, linecache, math, random, re, reprlib, signal, statistics, sys, traceback, types, collections, functools
`;

export const DRIVER_PY = String.raw`
import ast, builtins, inspect, io, json, linecache, random, re, reprlib, signal, sys, traceback
import _robocell_host as _host

_host_call = _host.call
_host_log = _host.log
_dumps = json.dumps
_loads = json.loads
_M = sys.monitoring
_use_tool_id, _get_tool, _register_callback, _set_events = _M.use_tool_id, _M.get_tool, _M.register_callback, _M.set_events
_STOP_EVENTS = _M.events.LINE | _M.events.JUMP
_signal_signal, _SIGINT = signal.signal, signal.SIGINT
_CELL_FILE = re.compile(r'^<cell-\d+>$')
_CAMEL = re.compile(r'^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$')
_UPPER = re.compile(r'(?<=[a-z0-9])([A-Z])')
_DRIVER_CODES = set()

LIMITS = {'max_output_chars': 100_000, 'max_line_chars': 10_000, 'max_value_chars': 10_000}


def snake(name):
    return _UPPER.sub(lambda m: '_' + m.group(1).lower(), name)


class PrimitiveError(Exception):
    """A robo call was misused: a bad argument, an unknown object, an unreachable target."""


class RoboError(Exception):
    """A robo call failed for another reason (the message says why)."""


class CellStopped(BaseException):
    """The host stopped this cell (episode finished, budget used up, interrupted). It cannot be caught."""


PrimitiveError.__module__ = RoboError.__module__ = CellStopped.__module__ = 'robo'

# ---- stops ----------------------------------------------------------------------------------------
_stop = {'on': False, 'tool': None, 'cell': False}


def _raise_stop(code, *rest):
    if id(code) in _DRIVER_CODES:
        return None
    raise CellStopped('the host stopped this cell')


_RAISE_STOP_CODE = _raise_stop.__code__


def _enter_stop():
    _stop['on'] = True
    try:
        tool = _stop['tool']
        if tool is None or _get_tool(tool) != 'robocell':
            tool = None
            for i in range(6):
                if _get_tool(i) is None:
                    tool = i
                    break
            if tool is None:
                return
            _use_tool_id(tool, 'robocell')
            _stop['tool'] = tool
        _register_callback(tool, _M.events.LINE, _raise_stop)
        _register_callback(tool, _M.events.JUMP, _raise_stop)
        _set_events(tool, _STOP_EVENTS)
    except BaseException:
        pass


def _leave_stop():
    was = _stop['on']
    _stop['on'] = False
    tool = _stop['tool']
    if tool is not None:
        try:
            _set_events(tool, 0)
        except BaseException:
            pass
    return was


def _on_sigint(signum, frame):
    # A SIGINT that lands after the cell's code has returned (the host raced its end) is dropped.
    if not _stop['cell']:
        return
    _enter_stop()
    # Landing in the stop callback itself, the raise is left to the callback: fired for a line of
    # run_cell's except clause (the driver's), a raise here would escape run_cell.
    if frame is not None and frame.f_code is _RAISE_STOP_CODE:
        return
    raise CellStopped('the host stopped this cell')


# ---- output ---------------------------------------------------------------------------------------
class _Output:
    def __init__(self):
        self.reset()

    def reset(self):
        self.parts = []
        self.size = 0
        self.dropped = 0
        self.pending = {'log': '', 'error': ''}

    def _line(self, level, line):
        cap = LIMITS['max_line_chars']
        if len(line) > cap:
            line = line[:cap] + '… [line cut at %d chars]' % cap
        try:
            _host_log(level, line)
        except Exception:
            pass

    def add(self, level, text):
        room = LIMITS['max_output_chars'] - self.size
        if room <= 0:
            self.dropped += len(text)
            return
        if len(text) > room:
            self.dropped += len(text) - room
            text = text[:room]
        self.parts.append(text)
        self.size += len(text)
        buf = self.pending[level] + text
        if '\n' in buf:
            *lines, buf = buf.split('\n')
            for line in lines:
                self._line(level, line)
        if len(buf) > LIMITS['max_line_chars']:
            self._line(level, buf)
            buf = ''
        self.pending[level] = buf

    def take(self):
        for level, buf in self.pending.items():
            if buf:
                self._line(level, buf)
        out, dropped = ''.join(self.parts), self.dropped
        self.reset()
        return out, dropped


_out = _Output()


class _Stream(io.TextIOBase):
    def __init__(self, level, name):
        self._level = level
        self._name = name

    @property
    def name(self):
        return self._name

    @property
    def encoding(self):
        return 'utf-8'

    def writable(self):
        return True

    def isatty(self):
        return False

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError('write() argument must be str, not %s' % type(s).__name__)
        _out.add(self._level, s)
        return len(s)

    def flush(self):
        pass


_stdout = _Stream('log', '<stdout>')
_stderr = _Stream('error', '<stderr>')


def _streams():
    sys.stdout = sys.__stdout__ = _stdout
    sys.stderr = sys.__stderr__ = _stderr
    sys.stdin = sys.__stdin__ = io.StringIO('')


${ROBO_PY}

# ---- running cells --------------------------------------------------------------------------------
NS = {'__name__': '__main__', '__builtins__': builtins}


def install(specs_json, limits_json):
    LIMITS.update(_loads(limits_json))
    robo = Robo(_loads(specs_json))
    NS.update(robo=robo, PrimitiveError=PrimitiveError, RoboError=RoboError)
    random.seed(0)


def _value_text(value):
    cap = LIMITS['max_value_chars']
    r = reprlib.Repr(maxlevel=4, maxtuple=50, maxlist=50, maxarray=50, maxdict=50, maxset=50, maxfrozenset=50, maxdeque=50, maxstring=cap, maxlong=cap, maxother=cap)
    try:
        text = r.repr(value)
    except CellStopped:
        raise
    except BaseException as e:
        text = '[value could not be shown: %s: %s]' % (type(e).__name__, e)
    return text if len(text) <= cap else text[:cap] + '… [%d more chars]' % (len(text) - cap)


def _describe(e, cell_name):
    out = {'type': type(e).__name__, 'message': '', 'line': None, 'column': None, 'stack': None}
    try:
        out['message'] = str(e)
    except BaseException:
        out['message'] = '[unprintable]'
    frames = [f for f in traceback.extract_tb(e.__traceback__) if _CELL_FILE.match(f.filename or '')]
    for f in frames:
        if f.filename == cell_name:
            out['line'] = f.lineno
            out['column'] = (f.colno + 1) if f.colno is not None else None
    if isinstance(e, SyntaxError) and e.filename == cell_name and e.lineno:
        out['line'], out['column'] = e.lineno, e.offset
        out['message'] = e.msg or out['message']
    try:
        text = ''.join(traceback.format_list(frames)) if frames else ''
        out['stack'] = 'Traceback (most recent call last):\n' + text + ''.join(traceback.format_exception_only(type(e), e)).rstrip('\n')
    except BaseException:
        pass
    return out


def run_cell(code, cell_name):
    _answers.clear()  # the world may have changed between cells; answer ids are per cell
    _repeats.clear()
    res = {'ok': True, 'value': None, 'error': None, 'stopped': False, 'memory_error': False}
    _streams()
    _signal_signal(_SIGINT, _on_sigint)
    try:
        tree = ast.parse(code, filename=cell_name, mode='exec')
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        linecache.cache[cell_name] = (len(code), None, code.splitlines(True), cell_name)
        body = compile(tree, cell_name, 'exec')
        tail = compile(last, cell_name, 'eval') if last is not None else None
        _stop['cell'] = True
        exec(body, NS)
        if tail is not None:
            value = eval(tail, NS)
            if value is not None:
                NS['_'] = value
                res['value'] = _value_text(value)
        _stop['cell'] = False
    except BaseException as e:
        _stop['cell'] = False
        stopped = _leave_stop()
        res['ok'] = False
        if stopped or isinstance(e, CellStopped):
            res['stopped'] = True
        else:
            res['memory_error'] = isinstance(e, MemoryError)
            res['error'] = _describe(e, cell_name)
        e.__traceback__ = None
        del e
    _stop['cell'] = False
    if _leave_stop():
        res['ok'], res['stopped'] = False, True
    res['stdout'], res['dropped'] = _out.take()
    res['repeats'] = _take_repeats()
    _answers.clear()
    return _dumps(res)


def _collect(code):
    _DRIVER_CODES.add(id(code))
    for c in code.co_consts:
        if isinstance(c, type(_collect.__code__)):
            _collect(c)


for _fn in list(globals().values()):
    _code = getattr(_fn, '__code__', None)
    if _code is not None and _code.co_filename == '<robocell-driver>':
        _collect(_code)
for _cls in [v for v in globals().values() if isinstance(v, type)]:
    for _attr in vars(_cls).values():
        _code = getattr(getattr(_attr, 'fget', _attr), '__code__', None)
        if _code is not None and _code.co_filename == '<robocell-driver>':
            _collect(_code)
`;
