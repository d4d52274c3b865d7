#!/bin/sh
# min_size.sh: an executable verifier in plain shell. It reads the request on
# stdin, takes the evidence path from it, and approves a JPEG or PNG file of at
# least 1000 bytes (smaller files are thumbnails or stubs, not photos).
# Register: habitctl plugin add --exec ./min_size.sh
request=$(cat)
path=$(printf '%s' "$request" | sed -n 's/.*"path":"\([^"]*\)".*/\1/p')
if [ -z "$path" ] || [ ! -r "$path" ]; then
    echo '{"outcome":"error","reason":"no_file","message":"the evidence file is not readable"}'
    exit 0
fi
magic=$(head -c 4 "$path" | od -An -tx1 | tr -d ' \n')
case "$magic" in
    ffd8ff*) kind=jpeg ;;
    89504e47) kind=png ;;
    *) echo '{"outcome":"rejected","confidence":0.95,"reason":"not_an_image","message":"neither JPEG nor PNG"}'; exit 0 ;;
esac
size=$(wc -c < "$path" | tr -d ' ')
if [ "$size" -lt 1000 ]; then
    echo "{\"outcome\":\"rejected\",\"confidence\":0.9,\"reason\":\"too_small\",\"message\":\"a $size-byte $kind\",\"signals\":[\"thumbnail\"]}"
else
    echo "{\"outcome\":\"approved\",\"confidence\":0.85,\"reason\":\"size_ok\",\"message\":\"a $size-byte $kind\"}"
fi
