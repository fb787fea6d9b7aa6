#!/usr/bin/env sh
# The secrets every instance of the compose stack shares (decisions 29, docs/operations.md "Secrets"):
# APP_SECRET (seals credentials and webhook secrets at rest, signs cursors) and the RS256 key of access
# tokens. Made once; kept out of git (deploy/secrets/ is ignored) and backed up apart from the database:
# a database restored without them opens no sealed value.
set -eu
cd "$(dirname "$0")"
# The folder is the host's guard (0700); the files are readable by any user because compose mounts each one
# alone into the containers, where Tolem runs as an unprivileged user (10001) that must read them.
mkdir -p secrets
chmod 700 secrets
[ -s secrets/app_secret ] || openssl rand -base64 48 | tr -d '\n' > secrets/app_secret
[ -s secrets/jwt_private_key.pem ] || openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 \
  -out secrets/jwt_private_key.pem 2>/dev/null
chmod 644 secrets/app_secret secrets/jwt_private_key.pem
echo "secrets in $(pwd)/secrets (kept if present)"
