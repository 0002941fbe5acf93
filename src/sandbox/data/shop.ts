/**
 * The shop: 2 to 4 registers (each with its own cash method, one shared card method, an archived
 * one) and the catalogue (~40 templates with codes, prices and taxes), drawn from the PRNG.
 */
import type { Rec } from '../types.js';
import { type Gen, insert } from './context.js';
import { CATEGORY_OF, DRINKS, POS_CATEGORY_OF, TAXES } from './reference.js';

const REGISTER_NAMES = ['Shop', 'Boutique', 'Bar', 'Terrace', 'Kiosk', 'Corner'];

const CATALOG: [string, string][] = [
  ['FURN_0001', 'Office Chair'],
  ['FURN_0002', 'Desk Lamp'],
  ['FURN_0003', 'Corner Desk'],
  ['FURN_0004', 'Drawer Unit'],
  ['FURN_0005', 'Magnetic Board'],
  ['FURN_0006', 'Large Cabinet'],
  ['FURN_0007', 'Storage Box'],
  ['FURN_0008', 'Small Shelf'],
  ['FURN_0009', 'Wall Shelf Unit'],
  ['FURN_0010', 'Monitor Stand'],
  ['FURN_0011', 'Acoustic Bloc Screens'],
  ['FURN_0012', 'Flipover'],
  ['FURN_0013', 'Pedal Bin'],
  ['FURN_0014', 'Whiteboard Pen'],
  ['FURN_0015', 'Letter Tray'],
  ['FURN_0016', 'Coat Rack'],
  ['FOOD_0001', 'Espresso'],
  ['FOOD_0002', 'Cappuccino'],
  ['FOOD_0003', 'Croissant'],
  ['FOOD_0004', 'Bagel'],
  ['FOOD_0005', 'Orange Juice'],
  ['FOOD_0006', 'Green Tea'],
  ['FOOD_0007', 'Chocolate Muffin'],
  ['FOOD_0008', 'Club Sandwich'],
  ['FOOD_0009', 'Caesar Salad'],
  ['FOOD_0010', 'Sparkling Water'],
  ['FOOD_0011', 'Lemonade'],
  ['FOOD_0012', 'Brownie'],
  ['BOOK_0001', 'Notebook A5'],
  ['BOOK_0002', 'City Guide'],
  ['BOOK_0003', 'Postcard Set'],
  ['BOOK_0004', 'Wall Calendar'],
  ['GIFT_0001', 'Gift Card'],
  ['GIFT_0002', 'Tote Bag'],
  ['GIFT_0003', 'Ceramic Mug'],
  ['GIFT_0004', 'Scented Candle'],
  ['GIFT_0005', 'Keychain'],
  ['GIFT_0006', 'Sunglasses'],
  ['GIFT_0007', 'Umbrella'],
  ['GIFT_0008', 'Water Bottle'],
];

/** Sold without tax (a gift card, some bakery): their discounted lines keep fractions of a cent. */
const UNTAXED = new Set(['FOOD_0003', 'FOOD_0007', 'FOOD_0012', 'GIFT_0001']);

export interface Shop {
  /** The company the registers keep their books for (1 unless --companies). */
  company: number;
  /** pos.config ids are configBase + 1, + 2, …; payment method ids follow the table's. */
  configBase: number;
  /** Sale names: `<orderPrefix>/000001`. */
  orderPrefix: string;
  /** The POS user who opens the sessions the admin does not. */
  cashier: number;
  registers: string[];
  /** Per register, its cash method's id. */
  cashMethod: number[];
  cardMethod: number;
}

export interface Product {
  productId: number;
  price: number;
  taxRate: number;
  taxIds: number[];
}

/** Registers and payment methods: one cash method per register (Odoo gives each its own cash
 * journal), one shared card method, and an archived method to exercise active_test. */
export function openShop(
  g: Gen,
  own: { company: number; tag: string; cashier: number } = { company: 1, tag: '', cashier: 6 },
): Shop {
  const { rng, stamp } = g;
  const configBase = g.db.table('pos.config').nextId - 1;
  const methodBase = g.db.table('pos.payment.method').nextId - 1;
  // A second company's records say theirs; company 1's are written as they always were.
  const company = own.company === 1 ? {} : { company_id: own.company };
  const ins = (model: string, rec: Rec) => insert(g, model, rec);
  const registerCount = rng.int(2, 4);
  const names = [...REGISTER_NAMES];
  const registers: string[] = ['Shop'];
  names.shift();
  while (registers.length < registerCount)
    registers.push(names.splice(rng.int(0, names.length - 1), 1)[0] as string);
  const cashMethod: number[] = [];
  if (own.tag)
    registers.forEach((name, i) => {
      registers[i] = `${own.tag} ${name}`;
    });
  registers.forEach((name, i) => {
    const id = methodBase + i + 1;
    ins('pos.payment.method', {
      id,
      name: i === 0 ? 'Cash' : `Cash ${own.tag ? name.slice(own.tag.length + 1) : name}`,
      sequence: i,
      is_cash_count: true,
      active: true,
      ...company,
      ...stamp,
    });
    cashMethod.push(id);
  });
  const cardMethod = methodBase + registers.length + 1;
  ins('pos.payment.method', {
    id: cardMethod,
    name: 'Card',
    sequence: 10,
    is_cash_count: false,
    active: true,
    ...company,
    ...stamp,
  });
  ins('pos.payment.method', {
    id: cardMethod + 1,
    name: 'Gift Voucher',
    sequence: 11,
    is_cash_count: false,
    active: false,
    ...company,
    ...stamp,
  });
  registers.forEach((name, i) => {
    ins('pos.config', {
      id: configBase + i + 1,
      name,
      active: true,
      payment_method_ids: [methodBase + i + 1, cardMethod],
      ...company,
      ...stamp,
    });
  });
  return {
    company: own.company,
    configBase,
    orderPrefix: own.tag || 'POS',
    cashier: own.cashier,
    registers,
    cashMethod,
    cardMethod,
  };
}

/** Catalogue: ~40 templates with codes; product.product ids are offset from template ids, as in
 * a real database where variants are created after other records. */
export function catalogue(g: Gen): Product[] {
  const { rng, stamp } = g;
  const ins = (model: string, rec: Rec) => insert(g, model, rec);
  const products: Product[] = [];
  const taxIdArrays = TAXES.map((t) => [t.id]);
  CATALOG.forEach(([code, name], i) => {
    const id = i + 1;
    const food = code.startsWith('FOOD');
    const price = food
      ? rng.pick([1.8, 2.2, 2.5, 2.9, 3.4, 3.9, 4.5, 6.5, 8.9, 9.5])
      : rng.pick([4.99, 7.5, 12.0, 14.9, 19.99, 24.5, 39.0, 59.9, 89.0, 149.0, 295.0]);
    const tax = food ? TAXES[2] : rng.chance(0.7) ? TAXES[1] : TAXES[0];
    const t = UNTAXED.has(code) ? undefined : (tax ?? TAXES[0]);
    const archived = i === CATALOG.length - 1;
    const inPos = !archived && i !== 15;
    const tmpl: Rec = {
      id,
      name,
      default_code: code,
      list_price: price,
      available_in_pos: inPos,
      active: !archived,
      taxes_id: t ? [t.id] : [],
      categ_id: CATEGORY_OF[code.slice(0, 4)] ?? 2,
      pos_categ_ids: [DRINKS.has(code) ? 3 : (POS_CATEGORY_OF[code.slice(0, 4)] ?? 5)],
      ...stamp,
    };
    if (g.version >= 18) tmpl.is_favorite = i % 13 === 0;
    else tmpl.priority = i % 13 === 0 ? '1' : '0';
    ins('product.template', tmpl);
    const productId = id + 10;
    ins('product.product', { id: productId, product_tmpl_id: id, active: !archived, ...stamp });
    if (inPos)
      products.push({
        productId,
        price,
        taxRate: (t?.amount ?? 0) / 100,
        taxIds: t ? (taxIdArrays[t.id - 1] as number[]) : [],
      });
  });
  return products;
}
