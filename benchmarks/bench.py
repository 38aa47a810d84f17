"""`make bench`: p256 against the generic reference and pyca/cryptography (see p256._bench)."""
import sys

from p256._bench import main

sys.exit(main(sys.argv[1:]))
