"""deploy/: what an operator runs is valid and agrees with the code.

The Kubernetes manifests validate against the Kubernetes API schemas (strict: no unknown field);
in both the compose file and the manifests every hexlog command and probe is one `hexlog`
accepts, every service connects as a user of deploy/users.acl (never an admin), and the Valkey
configuration is deploy/valkey.conf itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import kubernetes_validate
import pytest
import yaml

from services.cli.main import build_parser

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
K8S_VERSION = "1.30.0"
ACL_USERS = {line.split()[1] for line in (DEPLOY / "users.acl").read_text().splitlines()
             if line.startswith("user ") and " on " in line}


def k8s_documents() -> list[dict[str, Any]]:
    docs: list[dict[str, Any]] = []
    for path in sorted((DEPLOY / "k8s").glob("*.yaml")):
        if path.name != "kustomization.yaml":
            docs.extend(d for d in yaml.safe_load_all(path.read_text()) if d)
    return docs


def containers(doc: dict[str, Any]) -> list[dict[str, Any]]:
    spec = doc.get("spec", {}).get("template", {}).get("spec", {})
    found: list[dict[str, Any]] = spec.get("containers", [])
    return found


def hexlog_argv(words: list[str]) -> list[str]:
    """The `hexlog` arguments of a command line, with pod-name placeholders filled in."""
    return [w.replace("$(POD_NAME)", "pod-0").replace('"$POD_NAME"', "pod-0") for w in words]


def check_cli(argv: list[str]) -> None:
    build_parser().parse_args(argv)  # SystemExit on anything hexlog would refuse


@pytest.mark.parametrize("doc", k8s_documents(), ids=lambda d: f"{d['kind']}/{d['metadata']['name']}")
def test_every_manifest_is_valid_kubernetes(doc: dict[str, Any]) -> None:
    kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


def test_the_kustomization_lists_every_manifest() -> None:
    kustomization = yaml.safe_load((DEPLOY / "k8s" / "kustomization.yaml").read_text())
    files = {p.name for p in (DEPLOY / "k8s").glob("*.yaml")} - {"kustomization.yaml"}
    assert set(kustomization["resources"]) == files


def test_k8s_services_run_real_commands_as_their_own_acl_users() -> None:
    seen = set()
    for doc in k8s_documents():
        for c in containers(doc):
            if c["image"].startswith("hexlog"):
                check_cli(hexlog_argv(c["args"]))
                for probe in ("readinessProbe", "livenessProbe"):
                    shell = c[probe]["exec"]["command"]
                    assert shell[:2] == ["sh", "-c"]
                    words = hexlog_argv(shell[2].split())
                    assert words[0] == "hexlog"
                    check_cli(words[1:])
                env = {e["name"]: e for e in c["env"]}
                user = env["REDIS_URL"]["valueFrom"]["secretKeyRef"]["key"]
                assert user in ACL_USERS, user
                seen.add(doc["metadata"]["name"])
    assert seen == {"rules", "projections", "bots-random", "bots-heuristic"}


def test_the_k8s_valkey_config_is_deploy_valkey_conf() -> None:
    config = next(d for d in k8s_documents() if d["kind"] == "ConfigMap")
    assert config["data"]["valkey.conf"] == (DEPLOY / "valkey.conf").read_text()


def test_compose_services_run_real_commands_as_their_own_acl_users() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    valkey = services.pop("valkey")
    assert "./valkey.conf:/etc/valkey/valkey.conf:ro" in valkey["volumes"]
    assert "./users.acl:/etc/valkey/users.acl:ro" in valkey["volumes"]
    assert (DEPLOY / compose["x-hexlog"]["build"]["dockerfile"].removeprefix("deploy/")).exists()
    for name, service in services.items():
        check_cli(service["command"])
        if "healthcheck" in service:
            test = service["healthcheck"]["test"]
            assert test[:2] == ["CMD", "hexlog"]
            check_cli(test[2:])
        url = service["environment"]["REDIS_URL"]
        user = urlsplit(url.replace("${HEXLOG_PASSWORD_PREFIX:-change-me-}", "x")).username
        assert user in ACL_USERS, (name, user)
    assert services["rules"]["deploy"]["replicas"] >= 2
