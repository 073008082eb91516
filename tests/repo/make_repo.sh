#!/bin/sh
# Builds a git repository from a fixture directory, so that tests never need
# a real repository.  Usage: make_repo.sh FIXTURE_DIR DEST_GITDIR
#
# FIXTURE_DIR holds one directory per commit, applied in name order.  Each
# has a file COMMIT with "key: value" lines:
#   branch: NAME           branch to commit on (created from `from` if new)
#   from: NAME             start point of a new branch (default: current)
#   author: Name <email>
#   author_date: ISO-8601  committer_date: ISO-8601
#   message: first line    (repeatable; lines are joined with newlines)
#   delete: PATH           (repeatable) remove a path before committing
#   rename: OLD NEW        (repeatable) move a path
#   merge: NAME            merge branch NAME (no fast-forward; the commit's
#                          first parent stays the current branch)
# and a directory `tree/` whose files are copied over the work tree.
# The result is a bare repository at DEST_GITDIR with fixed ids: the same
# fixture always gives the same commit ids.
set -eu
src=$(cd "$1" && pwd)
case $2 in /*) dest=$2 ;; *) dest=$(pwd)/$2 ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git init -q -b main "$work"
cd "$work"
git config user.name fixture
git config user.email fixture@example.org
git config commit.gpgsign false
first=1
for c in "$src"/*/; do
  meta="$c/COMMIT"
  get() { sed -n "s/^$1: //p" "$meta"; }
  branch=$(get branch | head -n1); from=$(get from | head -n1)
  if [ "$first" = 1 ]; then
    git checkout -q -b "$branch"; first=0
  elif git rev-parse -q --verify "refs/heads/$branch" >/dev/null; then
    git checkout -q "$branch"
  else
    git checkout -q -b "$branch" ${from:+"$from"}
  fi
  get merge | while IFS= read -r b; do git merge -q --no-ff --no-commit "$b" >/dev/null 2>&1; done
  get delete | while IFS= read -r p; do git rm -q -- "$p"; done
  get rename | while IFS=' ' read -r old new; do
    mkdir -p "$(dirname "$new")"; git mv -- "$old" "$new"; done
  if [ -d "$c/tree" ]; then cp -R "$c/tree/." .; fi
  git add -A
  author=$(get author | head -n1)
  GIT_AUTHOR_NAME=${author% <*} GIT_AUTHOR_EMAIL=$(echo "$author" | sed 's/.*<\(.*\)>.*/\1/') \
  GIT_AUTHOR_DATE=$(get author_date | head -n1) \
  GIT_COMMITTER_NAME=fixture GIT_COMMITTER_EMAIL=fixture@example.org \
  GIT_COMMITTER_DATE=$(get committer_date | head -n1) \
    git commit -q --allow-empty -F - <<MSG
$(get message)
MSG
done
rm -rf "$dest"
git clone -q --bare "$work" "$dest"
# Keep every branch of the work repository, not only the checked-out one.
for b in $(git for-each-ref --format='%(refname:short)' refs/heads); do
  git -C "$dest" update-ref "refs/heads/$b" "$(git rev-parse "$b")"
done
