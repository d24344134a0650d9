"""E-mail through SMTP with STARTTLS (stdlib ``smtplib``, in a thread).

The connection is upgraded with STARTTLS before anything else is said (a server that
does not offer it is refused: the password and the mail would travel in clear); the
certificate is checked against the system's CAs, or the operator's ``--smtp-ca`` file.
A mail has a plain text and an HTML part, a ``List-Unsubscribe`` header (one click,
RFC 8058) and a ``Message-ID`` made of its outbox rows, so that a mail sent twice after a
crash (docs/notifications.md) is recognisable as one.
"""

from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate

from gamenight.server.notify.message import Message

TIMEOUT = 30.0


@dataclass(frozen=True)
class Smtp:
    """Where mails go (``--smtp-*`` settings)."""

    host: str
    port: int = 587
    user: str = ""
    password: str = ""
    sender: str = ""
    ca_file: str = ""  # "": the system's CAs


class MailError(Exception):
    """The SMTP server refused or could not be reached (one line)."""


def build(message: Message, to: str, sender: str, message_id: str) -> EmailMessage:
    mail = EmailMessage()
    mail["Subject"] = message.subject
    mail["From"] = sender
    mail["To"] = to
    mail["Date"] = formatdate()
    mail["Message-ID"] = message_id
    mail["Content-Language"] = message.lang
    mail["List-Unsubscribe"] = f"<{message.unsubscribe}>"
    mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    mail["Auto-Submitted"] = "auto-generated"
    mail.set_content(message.text())
    mail.add_alternative(message.html(), subtype="html")
    return mail


def send(smtp: Smtp, mail: EmailMessage) -> None:
    """Send ``mail`` (blocking: call it in a thread)."""
    context = ssl.create_default_context(cafile=smtp.ca_file or None)
    try:
        with smtplib.SMTP(smtp.host, smtp.port, timeout=TIMEOUT) as client:
            client.ehlo()
            if not client.has_extn("starttls"):
                raise MailError(f"{smtp.host}:{smtp.port} offers no STARTTLS")
            client.starttls(context=context)
            client.ehlo()
            if smtp.user:
                client.login(smtp.user, smtp.password)
            client.send_message(mail)
    except (OSError, smtplib.SMTPException) as exc:
        raise MailError(f"{smtp.host}:{smtp.port}: {exc}".splitlines()[0]) from None
