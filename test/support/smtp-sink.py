"""A real SMTP server for the mail tests (aiosmtpd): every message it accepts is written to
OUT_DIR as <n>.json, decoded by Python's email package (envelope recipients, From, To, Subject,
the plain-text and HTML bodies with their transfer encoding undone, the top-level content type
and the Date header), written to a temporary name first and
then renamed, so a reader never sees half a file. Prints "ready <port>" once it listens.
With a third argument, only recipients whose address contains it are accepted; the others get a
temporary failure (451), so their mail waits in the sender's outbox for its retry.
Usage: python3 smtp-sink.py <port> <out-dir> [<accepted-substring>]."""
import asyncio
import email
import email.policy
import itertools
import json
import os
import sys

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, out_dir, accepted=None):
        self.out_dir = out_dir
        self.accepted = accepted
        self.counter = itertools.count(1)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.accepted is not None and self.accepted not in address:
            return "451 4.3.0 Not now: try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        n = next(self.counter)
        message = email.message_from_bytes(envelope.original_content or envelope.content, policy=email.policy.default)
        body = message.get_body(preferencelist=("plain",))
        html = message.get_body(preferencelist=("html",))
        record = {
            "envelope_from": envelope.mail_from,
            "envelope_to": envelope.rcpt_tos,
            "from": str(message["From"]),
            "to": str(message["To"]),
            "subject": str(message["Subject"]),
            "text": body.get_content() if body is not None else "",
            "html": html.get_content() if html is not None else "",
            "content_type": message.get_content_type(),
            "date": str(message["Date"] or ""),
        }
        tmp = os.path.join(self.out_dir, f".{n}.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(record, f)
        os.rename(tmp, os.path.join(self.out_dir, f"{n:06d}.json"))
        return "250 Message accepted"


def main():
    port = int(sys.argv[1])
    out_dir = sys.argv[2]
    accepted = sys.argv[3] if len(sys.argv) > 3 else None
    os.makedirs(out_dir, exist_ok=True)
    controller = Controller(Sink(out_dir, accepted), hostname="127.0.0.1", port=port)
    controller.start()
    print(f"ready {port}", flush=True)
    try:
        asyncio.get_event_loop().run_forever()
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
