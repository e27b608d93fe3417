"""The audit report as text (`hexlog audit` without --json)."""

from __future__ import annotations

from services.audit.audit import AuditReport
from services.rules.record import GameRecord

SEED = {
    "revealed": "revealed in GameFinished",
    "referee": "the referee's (the game is live)",
    "none": "not revealed (the game is not over): chance outcomes cannot be checked",
}


def format_report(report: AuditReport, record: GameRecord) -> str:
    lines = [f"audit of game {report.game_id}: {report.events} events, "
             f"{'finished' if report.finished else 'not finished'}"]
    lines.append(f"  seed: {SEED[report.seed]}")
    lines.append(f"  commands re-run through the rules: {report.commands} gave the recorded events")
    lines.append(f"  chance outcomes re-drawn from the seed: {report.chance}")
    lines.append(f"  rejections re-judged: {report.rulings} gave the recorded rule")
    for note in report.notes:
        lines.append(f"  note: {note}")
    for skip in report.skipped[:10]:
        lines.append(f"  not checked: {skip}")
    if len(report.skipped) > 10:
        lines.append(f"  not checked: … {len(report.skipped) - 10} more")
    for d in report.divergences:
        lines.append(f"DIVERGENCE at version {d.version} ({d.kind}): {d.message}")
        if d.command:
            lines.append(f"    command:    {d.command}")
        if d.recorded:
            lines.append(f"    recorded:   {d.recorded}")
        if d.expected:
            lines.append(f"    rules give: {d.expected}")
    if report.divergences:
        lines.append(f"FAILED: {len(report.divergences)} divergence(s)")
    elif report.skipped:
        lines.append(f"INCOMPLETE: no divergence, {len(report.skipped)} check(s) impossible without the seed")
    else:
        lines.append("OK: every event, chance outcome and ruling is what the rules and the seed give")
    return "\n".join(lines)
