"""A health endpoint for a process that has no HTTP server of its own (the chat adapters):
`GET /health` answers `{"status": "ok"}` while the process runs."""

from __future__ import annotations

import asyncio

BODY = b'{"status": "ok"}'


async def serve_health(port: int, host: str = "127.0.0.1") -> asyncio.Server:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = await asyncio.wait_for(reader.readline(), 5)
            ok = request.startswith(b"GET /health")
            status = b"200 OK" if ok else b"404 Not Found"
            body = BODY if ok else b'{"error": "path: only /health"}'
            writer.write(b"HTTP/1.1 " + status + b"\r\nContent-Type: application/json\r\n"
                         b"Content-Length: " + str(len(body)).encode() +
                         b"\r\nConnection: close\r\n\r\n" + body)
            await writer.drain()
        except (TimeoutError, ConnectionError):
            pass
        finally:
            writer.close()

    return await asyncio.start_server(answer, host, port)
