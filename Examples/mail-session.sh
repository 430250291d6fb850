#!/usr/bin/env bash
# A realistic mail-app session driven through navdb, then shown the ways a bug report needs:
# the history, the back button and back menu at the end, a picture of the bar, and the payload
# an app would restore after a restart.
#
#   Examples/mail-session.sh [DATABASE]     (default: a fresh file in a temporary directory)
#
# NAVDB names the binary (default: .build/release/navdb, then .build/debug/navdb).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step happens 7 seconds after the one before, from 09:00 on 2 November 2026.
. Examples/common.sh mail.sqlite 7 2026-11-02 09 "$@"
# A command a guard refuses exits 3 (the veto is recorded); anything else is an error here.
vetoed() {
  local rc=0
  tick
  "$NAVDB" "$@" --time "$now" >/dev/null || rc=$?
  [ "$rc" = 3 ] || { echo "expected a veto (exit 3) from: navdb $*, got exit $rc" >&2; exit 1; }
}

nav session start mail --name "Mail on iPhone 15"
nav push mail mailboxes --title "Mailboxes" --route mail://mailboxes
# Many apps hide the back title with an empty custom back item and then give the long-press
# menu a real title of their own (otherwise the menu shows a blank row).
nav push mail inbox --title "Inbox" --route mail://mailbox/inbox \
    --back-bar-button-title "" --menu-title "Inbox"
nav push mail folder-work --title "Work" --route mail://mailbox/work --display-mode minimal
nav push mail msg-4711 --title "Re: Q3 planning" --route mail://message/4711 --param id=4711 --param thread=q3
nav update mail msg-4711 --title "Re: Q3 planning (3)"
# Reply: a compose sheet presented modally; it refuses a swipe-down while it has a draft.
nav present mail compose --title "New Message" --route mail://compose --param replyTo=4711 --modal-in-presentation
nav push mail recipients --title "Add Recipients" --pop-guard "Discard the recipients you picked?"
vetoed pop mail --source back-button
nav pop mail --source back-button --confirm
vetoed dismiss mail --source gesture
nav dismiss mail --source programmatic
# Long-press the back button and jump straight back to Work, then open the next message.
nav menu-select mail 1
nav push mail msg-4712 --title "Offsite agenda" --route mail://message/4712 --param id=4712

echo "== navdb history mail"
"$NAVDB" history mail
echo
echo "== navdb back-menu mail"
"$NAVDB" back-menu mail
echo
echo "== navdb show mail --at 11 (the compose sheet refused a swipe down)"
"$NAVDB" show mail --at 11
echo
echo "== navdb show mail"
"$NAVDB" show mail
echo
echo "== navdb restore mail --json"
"$NAVDB" restore mail --json
"$NAVDB" restore mail --ack >/dev/null
