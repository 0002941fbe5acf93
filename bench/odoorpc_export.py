#!/usr/bin/python3
"""The same sales export as a Python user would write it with Debian's python3-odoorpc:
search_read pages of 5,000 by id, written with the csv module, the same columns and
flattening as bench/handmade.sh. Used by bench/figures/export.ts.

usage: odoorpc_export.py HOST PORT DB LOGIN PASSWORD OUT.csv
"""
import csv
import sys

import odoorpc
from odoorpc.env import Environment

FIELDS = ['id', 'name', 'date_order', 'amount_total', 'amount_paid', 'amount_tax', 'state',
          'config_id', 'session_id', 'payment_ids']
PAGE = 5000


def connect(host, port, db, login, password):
    # version= skips odoorpc's probe of /web/webclient/version_info.
    odoo = odoorpc.ODOO(host, port=port, version='17.0', timeout=120)
    try:
        odoo.login(db, login, password)
    except Exception:
        # A server that speaks only /jsonrpc (no /web/session/authenticate, as the bundled
        # sandbox): authenticate there and give odoorpc the session it would have built.
        uid = odoo.json('/jsonrpc', {'service': 'common', 'method': 'authenticate',
                                     'args': [db, login, password, {}]})['result']
        odoo._env = Environment(odoo, db, uid, context={})
        odoo._login = login
        odoo._password = password
    return odoo


def m2o(v):
    return (v[0], v[1]) if v else ('', '')


def main():
    host, port, db, login, password, out = sys.argv[1:7]
    odoo = connect(host, int(port), db, login, password)
    offset = 0
    with open(out, 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        while True:
            page = odoo.execute_kw('pos.order', 'search_read', [[]],
                                   {'fields': FIELDS, 'order': 'id', 'limit': PAGE, 'offset': offset})
            for r in page:
                w.writerow([r['id'], r['name'], r['date_order'], r['amount_total'], r['amount_paid'],
                            r['amount_tax'], r['state'], *m2o(r['config_id']), *m2o(r['session_id']),
                            ';'.join(str(i) for i in r['payment_ids'])])
            if len(page) < PAGE:
                break
            offset += PAGE


if __name__ == '__main__':
    main()
