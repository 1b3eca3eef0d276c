#!/usr/bin/env python3
"""Runs a composite GitHub Action's steps outside GitHub, as the runner
would run them, so that tests/it/ci_wiring.rs can check what action.yml
does without a runner:

    run_action.py ACTION_DIR WORKSPACE HOME REPORT.json [NAME=VALUE ...]

* The inputs are the NAME=VALUE arguments over the defaults of action.yml,
  as strings (a workflow's `sarif: true` reaches the action as "true").
  Composite actions get their inputs through `${{ inputs.NAME }}` only (the
  runner sets no INPUT_* variables for them).
* `${{ ... }}` expressions are evaluated in `env`, `with` and `if`: the
  contexts `inputs`, `steps.ID.outputs`, `github.action_path`,
  `github.workspace`, `runner.temp`, `runner.os`, `runner.arch`; string
  literals, `==`, `!=`, `&&`, `||`, `!`, parentheses, and success(),
  failure(), always(). A `run:` script holding an expression is refused:
  inputs reach scripts as environment variables, never spliced into them.
* `run:` steps run with `bash --noprofile --norc -eo pipefail FILE` in the
  workspace, with GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH and
  GITHUB_STEP_SUMMARY files of their own (as the runner gives each step),
  GITHUB_ACTION_PATH, GITHUB_WORKSPACE, RUNNER_TEMP, CI and
  GITHUB_ACTIONS set, and HOME as given (actions/cache's `~`). Outputs,
  environment and PATH additions carry over to the later steps; the step
  summaries are joined, as the runner shows them.
* `uses:` steps (other actions: actions/cache, upload-sarif) cannot run
  here: they are recorded with whether their `if` held and their `with`
  evaluated. A later run with the same HOME finds what an earlier run left
  in it, which is what actions/cache restores on a real runner.
* Steps after a failed one are skipped unless their `if` says otherwise;
  the action's exit code is the first failure's.

The report (JSON): for each step its name, id, whether it ran, `uses` and
`with` or its exit code, stdout and stderr; the action's outputs, its
exit code and the step summary.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.S)
TOKEN = re.compile(
    r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||!|\(|\))"
    r"|(?P<call>[A-Za-z_]\w*)\(\)|(?P<name>[A-Za-z_][\w-]*(?:\.[\w-]+)*))"
)


class Context:
    def __init__(self, inputs, steps, github, runner, failed):
        self.inputs, self.steps = inputs, steps
        self.github, self.runner, self.failed = github, runner, failed

    def lookup(self, name):
        parts = name.split(".")
        if parts[0] == "inputs" and len(parts) == 2:
            return self.inputs.get(parts[1], "")
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return self.steps.get(parts[1], {}).get(parts[3], "")
        if parts[0] in ("github", "runner") and len(parts) == 2:
            table = self.github if parts[0] == "github" else self.runner
            if parts[1] not in table:
                raise ValueError(f"unknown context {name}")
            return table[parts[1]]
        if name in ("true", "false"):
            return name == "true"
        raise ValueError(f"unknown context {name}")

    def evaluate(self, text):
        """A GitHub expression (the subset above) as a Python value."""
        python, pos = [], 0
        text = text.strip()
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ValueError(f"cannot read expression {text!r} at {pos}")
            pos = m.end()
            if m.group("str") is not None:
                python.append(repr(m.group("str")[1:-1].replace("''", "'")))
            elif m.group("op") is not None:
                op = m.group("op")
                python.append({"&&": " and ", "||": " or ", "!": " not "}.get(op, f" {op} "))
            elif m.group("call") is not None:
                call = m.group("call")
                value = {"success": not self.failed, "failure": self.failed, "always": True}
                if call not in value:
                    raise ValueError(f"unknown function {call}()")
                python.append(repr(value[call]))
            else:
                python.append(repr(self.lookup(m.group("name"))))
        return eval("".join(python), {"__builtins__": {}})

    def substitute(self, text):
        """A string with its ${{ }} expressions replaced by their values."""

        def one(m):
            v = self.evaluate(m.group(1))
            return ("true" if v else "false") if isinstance(v, bool) else str(v)

        return EXPRESSION.sub(one, str(text))

    def holds(self, condition):
        """Whether a step's `if` holds (none: success())."""
        if condition is None:
            return not self.failed
        condition = str(condition).strip()
        m = EXPRESSION.fullmatch(condition)
        value = self.evaluate(m.group(1) if m else condition)
        # a condition naming no status function holds only after success
        if not re.search(r"\b(success|failure|always)\(\)", condition):
            return bool(value) and not self.failed
        return bool(value)


def read_outputs(path):
    """key=value lines and key<<DELIMITER blocks, as the runner reads them."""
    out, lines = {}, open(path, encoding="utf-8").read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            key, delimiter = line.split("<<", 1)
            value = []
            i += 1
            while lines[i] != delimiter:
                value.append(lines[i])
                i += 1
            out[key] = "\n".join(value)
        elif "=" in line:
            key, value = line.split("=", 1)
            out[key] = value
        i += 1
    return out


def main():
    action_dir, workspace, home, report_path = sys.argv[1:5]
    action = yaml.safe_load(open(os.path.join(action_dir, "action.yml"), encoding="utf-8"))
    assert action["runs"]["using"] == "composite", "not a composite action"
    inputs = {k: str(v.get("default", "")) for k, v in action.get("inputs", {}).items()}
    for arg in sys.argv[5:]:
        name, value = arg.split("=", 1)
        if name not in inputs:
            sys.exit(f"action.yml has no input {name}")
        inputs[name] = value
    temp = tempfile.mkdtemp(prefix="runner-temp-")
    github = {"action_path": action_dir, "workspace": workspace}
    runner = {"temp": temp, "os": "Linux", "arch": "X64"}
    steps_outputs, env_added, path_added, summaries = {}, {}, [], []
    report = {"steps": []}
    failed, exit_code = False, 0
    for n, step in enumerate(action["runs"]["steps"]):
        ctx = Context(inputs, steps_outputs, github, runner, failed)
        entry = {"name": step.get("name", ""), "id": step.get("id")}
        report["steps"].append(entry)
        entry["ran"] = ctx.holds(step.get("if"))
        if "uses" in step:
            entry["uses"] = step["uses"]
            if entry["ran"]:
                entry["with"] = {k: ctx.substitute(v) for k, v in step.get("with", {}).items()}
            continue
        if not entry["ran"]:
            continue
        script = step["run"]
        if EXPRESSION.search(script):
            sys.exit(f"step {entry['name']!r}: an expression in its run script")
        assert step.get("shell") == "bash", f"step {entry['name']!r}: shell must be bash"
        files = {}
        for var in ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY"):
            files[var] = os.path.join(temp, f"{var.lower()}_{n}")
            open(files[var], "w").close()
        env = dict(os.environ)
        env.update(env_added)
        env.update(files)
        env.update(
            HOME=home,
            CI="true",
            GITHUB_ACTIONS="true",
            GITHUB_ACTION_PATH=action_dir,
            GITHUB_WORKSPACE=workspace,
            RUNNER_TEMP=temp,
            RUNNER_OS="Linux",
            RUNNER_ARCH="X64",
        )
        env["PATH"] = os.pathsep.join(path_added[::-1] + [env.get("PATH", "")])
        env.update({k: ctx.substitute(v) for k, v in step.get("env", {}).items()})
        script_file = os.path.join(temp, f"step_{n}.sh")
        with open(script_file, "w", encoding="utf-8") as f:
            f.write(script)
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", script_file],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
        )
        entry.update(code=done.returncode, stdout=done.stdout, stderr=done.stderr)
        if step.get("id"):
            steps_outputs[step["id"]] = read_outputs(files["GITHUB_OUTPUT"])
        env_added.update(read_outputs(files["GITHUB_ENV"]))
        path_added += [p for p in open(files["GITHUB_PATH"]).read().splitlines() if p]
        summaries.append(open(files["GITHUB_STEP_SUMMARY"], encoding="utf-8").read())
        if done.returncode != 0 and not failed:
            failed, exit_code = True, done.returncode
    ctx = Context(inputs, steps_outputs, github, runner, failed)
    report["outputs"] = {
        k: ctx.substitute(v.get("value", "")) for k, v in action.get("outputs", {}).items()
    }
    report["exit"] = exit_code
    report["summary"] = "".join(summaries)
    with open(report_path, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
