/**
 * The fields a real Odoo 17 and 19 report for the POS models that the sandbox does not model
 * (portal, stock, accounting, mail, images...): taken from the recorded `fields_get` of a real
 * 17 and 19 (`test/sandbox/wire17|19/t3_*fields_get_*.json`). They answer fields_get as there and
 * read as empty values (false, 0, []), so a client sees the same field set as on a real server.
 * 16 takes 17's set, 18 the fields both 17 and 19 have (with 19's attributes): neither was run.
 */
import type { FieldType, OdooVersion } from './types.js';

/** [name, type, label, stored (1) or not (0), relation or selection] */
export type InertField = [string, FieldType, string, 0 | 1, (string | [string, string][])?];

interface ModelCatalog {
  /** Alike on 17 and 19. */
  both: InertField[];
  /** 17 only, or 17's attributes where 19's differ. */
  v17: InertField[];
  /** 19 only, or 19's attributes where 17's differ. */
  v19: InertField[];
}

/** mail.activity.mixin's fields, the same on every model that inherits it. */
const ACTIVITIES: InertField[] = [
  ['activity_ids', 'one2many', 'Activities', 1, 'mail.activity'],
  [
    'activity_state',
    'selection',
    'Activity State',
    0,
    [
      ['overdue', 'Overdue'],
      ['today', 'Today'],
      ['planned', 'Planned'],
    ],
  ],
  ['activity_user_id', 'many2one', 'Responsible User', 0, 'res.users'],
  ['activity_type_id', 'many2one', 'Next Activity Type', 0, 'mail.activity.type'],
  ['activity_type_icon', 'char', 'Activity Type Icon', 0],
  ['activity_date_deadline', 'date', 'Next Activity Deadline', 0],
  ['my_activity_date_deadline', 'date', 'My Activity Deadline', 0],
  ['activity_summary', 'char', 'Next Activity Summary', 0],
  [
    'activity_exception_decoration',
    'selection',
    'Activity Exception Decoration',
    0,
    [
      ['warning', 'Alert'],
      ['danger', 'Error'],
    ],
  ],
  ['activity_exception_icon', 'char', 'Icon', 0],
];

/** mail.thread's fields, the same on every model that inherits it. */
const MAIL_THREAD: InertField[] = [
  ['message_is_follower', 'boolean', 'Is Follower', 0],
  ['message_follower_ids', 'one2many', 'Followers', 1, 'mail.followers'],
  ['message_partner_ids', 'many2many', 'Followers (Partners)', 0, 'res.partner'],
  ['message_ids', 'one2many', 'Messages', 1, 'mail.message'],
  ['has_message', 'boolean', 'Has Message', 0],
  ['message_needaction', 'boolean', 'Action Needed', 0],
  ['message_needaction_counter', 'integer', 'Number of Actions', 0],
  ['message_has_error', 'boolean', 'Message Delivery error', 0],
  ['message_has_error_counter', 'integer', 'Number of errors', 0],
  ['message_attachment_count', 'integer', 'Attachment Count', 0],
  ['website_message_ids', 'one2many', 'Website Messages', 1, 'mail.message'],
  ['message_has_sms_error', 'boolean', 'SMS Delivery error', 0],
];

const CATALOG: Record<string, ModelCatalog> = {
  'pos.config': {
    both: [
      ['printer_ids', 'many2many', 'Order Printers', 1, 'pos.printer'],
      ['is_order_printer', 'boolean', 'Order Printer', 1],
      ['is_installed_account_accountant', 'boolean', 'Is the Full Accounting Installed', 0],
      ['picking_type_id', 'many2one', 'Operation Type', 1, 'stock.picking.type'],
      ['journal_id', 'many2one', 'Point of Sale Journal', 1, 'account.journal'],
      ['invoice_journal_id', 'many2one', 'Invoice Journal', 1, 'account.journal'],
      ['iface_cashdrawer', 'boolean', 'Cashdrawer', 1],
      ['iface_electronic_scale', 'boolean', 'Electronic Scale', 1],
      ['iface_print_via_proxy', 'boolean', 'Print via Proxy', 1],
      ['iface_scan_via_proxy', 'boolean', 'Scan via Proxy', 1],
      ['iface_big_scrollbars', 'boolean', 'Large Scrollbars', 1],
      ['iface_print_auto', 'boolean', 'Automatic Receipt Printing', 1],
      ['iface_print_skip_screen', 'boolean', 'Skip Preview Screen', 1],
      [
        'iface_tax_included',
        'selection',
        'Tax Display',
        1,
        [
          ['subtotal', 'Tax-Excluded Price'],
          ['total', 'Tax-Included Price'],
        ],
      ],
      ['iface_available_categ_ids', 'many2many', 'Available PoS Product Categories', 1, 'pos.category'],
      ['restrict_price_control', 'boolean', 'Restrict Price Modifications to Managers', 1],
      ['is_margins_costs_accessible_to_every_user', 'boolean', 'Margins & Costs', 1],
      ['cash_control', 'boolean', 'Advanced Cash Control', 0],
      ['set_maximum_difference', 'boolean', 'Set Maximum Difference', 1],
      ['receipt_header', 'text', 'Receipt Header', 1],
      ['receipt_footer', 'text', 'Receipt Footer', 1],
      ['proxy_ip', 'char', 'IP Address', 1],
      ['uuid', 'char', 'Uuid', 1],
      ['number_of_rescue_session', 'integer', 'Number of Rescue Session', 0],
      ['pos_session_username', 'char', 'Pos Session Username', 0],
      ['pos_session_state', 'char', 'Pos Session State', 0],
      ['pos_session_duration', 'char', 'Pos Session Duration', 0],
      ['pricelist_id', 'many2one', 'Default Pricelist', 1, 'product.pricelist'],
      ['available_pricelist_ids', 'many2many', 'Available Pricelists', 1, 'product.pricelist'],
      ['group_pos_manager_id', 'many2one', 'Point of Sale Manager Group', 1, 'res.groups'],
      ['group_pos_user_id', 'many2one', 'Point of Sale User Group', 1, 'res.groups'],
      ['iface_tipproduct', 'boolean', 'Product tips', 1],
      ['tip_product_id', 'many2one', 'Tip Product', 1, 'product.product'],
      ['fiscal_position_ids', 'many2many', 'Fiscal Positions', 1, 'account.fiscal.position'],
      ['default_fiscal_position_id', 'many2one', 'Default Fiscal Position', 1, 'account.fiscal.position'],
      ['default_bill_ids', 'many2many', 'Coins/Bills', 1, 'pos.bill'],
      ['use_pricelist', 'boolean', 'Use a pricelist.', 1],
      ['tax_regime_selection', 'boolean', 'Tax Regime Selection value', 1],
      ['limit_categories', 'boolean', 'Restrict Categories', 1],
      ['module_pos_restaurant', 'boolean', 'Is a Bar/Restaurant', 1],
      ['module_pos_discount', 'boolean', 'Global Discounts', 1],
      ['is_posbox', 'boolean', 'PosBox', 1],
      ['is_header_or_footer', 'boolean', 'Custom Header & Footer', 1],
      ['module_pos_hr', 'boolean', 'Module Pos Hr', 1],
      ['amount_authorized_diff', 'float', 'Amount Authorized Difference', 1],
      ['company_has_template', 'boolean', 'Company has chart of accounts', 0],
      ['current_user_id', 'many2one', 'Current Session Responsible', 0, 'res.users'],
      ['other_devices', 'boolean', 'Other Devices', 1],
      ['rounding_method', 'many2one', 'Cash rounding', 1, 'account.cash.rounding'],
      ['cash_rounding', 'boolean', 'Cash Rounding', 1],
      ['only_round_cash_method', 'boolean', 'Only apply rounding on cash', 1],
      ['has_active_session', 'boolean', 'Has Active Session', 0],
      ['manual_discount', 'boolean', 'Line Discounts', 1],
      ['ship_later', 'boolean', 'Ship Later', 1],
      ['warehouse_id', 'many2one', 'Warehouse', 1, 'stock.warehouse'],
      ['route_id', 'many2one', 'Spefic route for products delivered later.', 1, 'stock.route'],
      [
        'picking_policy',
        'selection',
        'Shipping Policy',
        1,
        [
          ['direct', 'As soon as possible'],
          ['one', 'When all products are ready'],
        ],
      ],
      ['auto_validate_terminal_payment', 'boolean', 'Auto Validate Terminal Payment', 1],
      ['trusted_config_ids', 'many2many', 'Trusted Point of Sale Configurations', 1, 'pos.config'],
      ['epson_printer_ip', 'char', 'Epson Printer IP', 1],
    ],
    v17: [
      ['iface_customer_facing_display', 'boolean', 'Iface Customer Facing Display', 0],
      ['iface_customer_facing_display_via_proxy', 'boolean', 'Customer Facing Display', 1],
      ['iface_customer_facing_display_local', 'boolean', 'Local Customer Facing Display', 1],
      ['iface_customer_facing_display_background_image_1920', 'binary', 'Background Image', 1],
      ['iface_start_categ_id', 'many2one', 'Initial Category', 1, 'pos.category'],
      ['sequence_id', 'many2one', 'Order IDs Sequence', 1, 'ir.sequence'],
      ['sequence_line_id', 'many2one', 'Order Line IDs Sequence', 1, 'ir.sequence'],
      ['start_category', 'boolean', 'Start Category', 1],
      ['module_pos_mercury', 'boolean', 'Integrated Card Payments', 1],
    ],
    v19: [
      ['access_token', 'char', 'Access Token', 1],
      ['order_seq_id', 'many2one', 'Order Sequence', 1, 'ir.sequence'],
      ['order_backend_seq_id', 'many2one', 'Order Backend Sequence', 1, 'ir.sequence'],
      ['order_line_seq_id', 'many2one', 'Order Line Sequence', 1, 'ir.sequence'],
      ['device_seq_id', 'many2one', 'Device Sequence', 1, 'ir.sequence'],
      ['iface_group_by_categ', 'boolean', 'Group products by categories', 1],
      ['customer_display_bg_img', 'binary', 'Background Image', 1],
      ['customer_display_bg_img_name', 'char', 'Background Image Name', 1],
      ['basic_receipt', 'boolean', 'Basic Receipt', 1],
      ['use_presets', 'boolean', 'Use Presets', 1],
      ['default_preset_id', 'many2one', 'Default Preset', 1, 'pos.preset'],
      ['available_preset_ids', 'many2many', 'Available Presets', 1, 'pos.preset'],
      ['module_pos_avatax', 'boolean', 'AvaTax PoS Integration', 1],
      ['module_pos_appointment', 'boolean', 'Online Booking', 1],
      ['show_product_images', 'boolean', 'Show Product Images', 1],
      ['show_category_images', 'boolean', 'Show Category Images', 1],
      ['note_ids', 'many2many', 'Note Models', 1, 'pos.note'],
      ['module_pos_sms', 'boolean', 'SMS Enabled', 1],
      ['is_closing_entry_by_product', 'boolean', 'Closing Entry by product', 1],
      ['order_edit_tracking', 'boolean', 'Track orders edits', 1],
      ['last_data_change', 'datetime', 'Last Write Date', 1],
      ['fallback_nomenclature_id', 'many2one', 'Fallback Nomenclature', 1, 'barcode.nomenclature'],
      ['use_fast_payment', 'boolean', 'Fast Payment Validation', 1],
      ['fast_payment_method_ids', 'many2many', 'Fast Payment Methods', 1, 'pos.payment.method'],
      ['statistics_for_current_session', 'json', 'Session Statistics', 0],
    ],
  },
  'pos.order': {
    both: [
      ['access_url', 'char', 'Portal Access URL', 0],
      ['access_token', 'char', 'Security Token', 1],
      ['access_warning', 'text', 'Access warning', 0],
      ['last_order_preparation_change', 'char', 'Last preparation change', 1],
      ['margin', 'monetary', 'Margin', 0],
      ['margin_percent', 'float', 'Margin (%)', 0],
      ['is_total_cost_computed', 'boolean', 'Is Total Cost Computed', 0],
      ['country_code', 'char', 'Country Code', 0],
      ['pricelist_id', 'many2one', 'Pricelist', 1, 'product.pricelist'],
      ['sequence_number', 'integer', 'Sequence Number', 1],
      ['currency_rate', 'float', 'Currency Rate', 1],
      ['picking_ids', 'one2many', 'Picking', 1, 'stock.picking'],
      ['picking_count', 'integer', 'Picking Count', 0],
      ['failed_pickings', 'boolean', 'Failed Pickings', 0],
      ['picking_type_id', 'many2one', 'Operation Type', 0, 'stock.picking.type'],
      ['nb_print', 'integer', 'Number of Print', 1],
      ['sale_journal', 'many2one', 'Sales Journal', 1, 'account.journal'],
      ['fiscal_position_id', 'many2one', 'Fiscal Position', 1, 'account.fiscal.position'],
      ['session_move_id', 'many2one', 'Session Journal Entry', 0, 'account.move'],
      ['shipping_date', 'date', 'Shipping Date', 1],
      ['has_refundable_lines', 'boolean', 'Has Refundable Lines', 0],
      ['ticket_code', 'char', 'Ticket Code', 1],
      ['online_payment_method_id', 'many2one', 'Online Payment Method', 0, 'pos.payment.method'],
      ['next_online_payment_amount', 'float', 'Next online payment amount to pay', 1],
    ],
    v17: [['procurement_group_id', 'many2one', 'Procurement Group', 1, 'procurement.group']],
    v19: [
      ...MAIL_THREAD,
      ['amount_difference', 'monetary', 'Difference', 1],
      ['stock_reference_ids', 'many2many', 'Reference', 1, 'stock.reference'],
      ['preset_id', 'many2one', 'Preset', 1, 'pos.preset'],
      ['floating_order_name', 'char', 'Order Name', 1],
      ['preset_time', 'datetime', 'Hour', 1],
      ['uuid', 'char', 'Uuid', 1],
      ['email', 'char', 'Email', 1],
      ['mobile', 'char', 'Mobile', 1],
      ['is_edited', 'boolean', 'Edited', 0],
      ['has_deleted_line', 'boolean', 'Has Deleted Line', 1],
      ['order_edit_tracking', 'boolean', 'Track orders edits', 0],
      ['available_payment_method_ids', 'many2many', 'Available Payment Methods', 0, 'pos.payment.method'],
      [
        'invoice_status',
        'selection',
        'Invoice Status',
        0,
        [
          ['invoiced', 'Fully Invoiced'],
          ['to_invoice', 'To Invoice'],
        ],
      ],
      ['reversed_move_ids', 'one2many', 'Reversal Account Moves', 1, 'account.move'],
      ['source', 'selection', 'Origin', 1, [['pos', 'Point of Sale']]],
    ],
  },
  'pos.order.line': {
    both: [
      ['name', 'char', 'Line No', 1],
      ['notice', 'char', 'Discount Notice', 1],
      ['attribute_value_ids', 'many2many', 'Selected Attributes', 1, 'product.template.attribute.value'],
      ['custom_attribute_value_ids', 'one2many', 'Custom Values', 1, 'product.attribute.custom.value'],
      ['price_extra', 'float', 'Price extra', 1],
      ['margin', 'monetary', 'Margin', 0],
      ['margin_percent', 'float', 'Margin (%)', 0],
      ['total_cost', 'float', 'Total cost', 1],
      ['is_total_cost_computed', 'boolean', 'Is Total Cost Computed', 1],
      ['pack_lot_ids', 'one2many', 'Lot/serial Number', 1, 'pos.pack.operation.lot'],
      ['customer_note', 'char', 'Customer Note', 1],
      ['uuid', 'char', 'Uuid', 1],
      ['combo_parent_id', 'many2one', 'Combo Parent', 1, 'pos.order.line'],
      ['combo_line_ids', 'one2many', 'Combo Lines', 1, 'pos.order.line'],
    ],
    v17: [
      ['skip_change', 'boolean', 'Skip line when sending ticket to kitchen printers.', 1],
      ['product_uom_id', 'many2one', 'Product UoM', 0, 'uom.uom'],
    ],
    v19: [
      [
        'price_type',
        'selection',
        'Price Type',
        1,
        [
          ['original', 'Original'],
          ['manual', 'Manual'],
          ['automatic', 'Automatic'],
        ],
      ],
      ['product_uom_id', 'many2one', 'Product Unit', 0, 'uom.uom'],
      ['note', 'char', 'Product Note', 1],
      ['combo_item_id', 'many2one', 'Combo Item', 1, 'product.combo.item'],
      ['is_edited', 'boolean', 'Edited', 1],
      ['extra_tax_data', 'json', 'Extra Tax Data', 1],
    ],
  },
  'pos.payment': {
    both: [
      ['currency_rate', 'float', 'Conversion Rate', 0],
      ['partner_id', 'many2one', 'Customer', 0, 'res.partner'],
      ['payment_status', 'char', 'Payment Status', 1],
      ['ticket', 'char', 'Payment Receipt Info', 1],
      ['account_move_id', 'many2one', 'Account Move', 1, 'account.move'],
      ['online_account_payment_id', 'many2one', 'Online accounting payment', 1, 'account.payment'],
    ],
    v17: [['cardholder_name', 'char', 'Cardholder Name', 1]],
    v19: [
      ['user_id', 'many2one', 'Employee', 0, 'res.users'],
      ['card_brand', 'char', 'Brand of card', 1],
      ['card_no', 'char', 'Card Number(Last 4 Digit)', 1],
      ['cardholder_name', 'char', 'Card Owner name', 1],
      ['payment_ref_no', 'char', 'Payment reference number', 1],
      ['payment_method_authcode', 'char', 'Payment APPR Code', 1],
      ['payment_method_issuer_bank', 'char', 'Payment Issuer Bank', 1],
      ['payment_method_payment_mode', 'char', 'Payment Mode', 1],
      ['uuid', 'char', 'Uuid', 1],
    ],
  },
  'pos.payment.method': {
    both: [
      ['outstanding_account_id', 'many2one', 'Outstanding Account', 1, 'account.account'],
      ['receivable_account_id', 'many2one', 'Intermediary Account', 1, 'account.account'],
      ['journal_id', 'many2one', 'Journal', 1, 'account.journal'],
      ['split_transactions', 'boolean', 'Identify Customer', 1],
      ['open_session_ids', 'many2many', 'Pos Sessions', 0, 'pos.session'],
      ['config_ids', 'many2many', 'Point of Sale', 1, 'pos.config'],
      ['use_payment_terminal', 'selection', 'Use a Payment Terminal', 1, []],
      ['hide_use_payment_terminal', 'boolean', 'Hide Use Payment Terminal', 0],
      [
        'type',
        'selection',
        'Type',
        0,
        [
          ['cash', 'Cash'],
          ['bank', 'Bank'],
          ['pay_later', 'Customer Account'],
          ['online', 'Online'],
        ],
      ],
      ['image', 'binary', 'Image', 1],
      ['is_online_payment', 'boolean', 'Online Payment', 1],
      ['online_payment_provider_ids', 'many2many', 'Allowed Providers', 1, 'payment.provider'],
      ['has_an_online_payment_provider', 'boolean', 'Has An Online Payment Provider', 0],
    ],
    v17: [],
    v19: [
      ['default_pos_receivable_account_name', 'char', 'Default Receivable Account Name', 0],
      [
        'payment_method_type',
        'selection',
        'Integration',
        1,
        [
          ['none', 'None required'],
          ['terminal', 'Terminal'],
        ],
      ],
      ['default_qr', 'char', 'Default Qr', 0],
      ['qr_code_method', 'selection', 'QR Code Format', 1, []],
      ['hide_qr_code_method', 'boolean', 'Hide Qr Code Method', 0],
    ],
  },
  'pos.session': {
    both: [
      ...ACTIVITIES,
      ...MAIL_THREAD,
      ['access_token', 'char', 'Security Token', 1],
      ['opening_notes', 'text', 'Opening Notes', 1],
      ['closing_notes', 'text', 'Closing Notes', 1],
      ['cash_control', 'boolean', 'Has Cash Control', 0],
      ['cash_journal_id', 'many2one', 'Cash Journal', 1, 'account.journal'],
      ['failed_pickings', 'boolean', 'Failed Pickings', 0],
      ['picking_count', 'integer', 'Picking Count', 0],
      ['picking_ids', 'one2many', 'Picking', 1, 'stock.picking'],
      ['move_id', 'many2one', 'Journal Entry', 1, 'account.move'],
      ['is_in_company_currency', 'boolean', 'Is Using Company Currency', 0],
      ['update_stock_at_closing', 'boolean', 'Stock should be updated at closing', 1],
      ['bank_payment_ids', 'one2many', 'Bank Payments', 1, 'account.payment'],
    ],
    v17: [
      ['sequence_number', 'integer', 'Order Sequence Number', 1],
      ['login_number', 'integer', 'Login Sequence Number', 1],
    ],
    v19: [],
  },
  'product.template': {
    both: [
      ['image_1920', 'binary', 'Image', 1],
      ['image_1024', 'binary', 'Image 1024', 1],
      ['image_512', 'binary', 'Image 512', 1],
      ['image_256', 'binary', 'Image 256', 1],
      ['image_128', 'binary', 'Image 128', 1],
      ...ACTIVITIES,
      ...MAIL_THREAD,
      ['sequence', 'integer', 'Sequence', 1],
      ['description', 'html', 'Description', 1],
      ['description_purchase', 'text', 'Purchase Description', 1],
      ['description_sale', 'text', 'Sales Description', 1],
      ['currency_id', 'many2one', 'Currency', 0, 'res.currency'],
      ['cost_currency_id', 'many2one', 'Cost Currency', 0, 'res.currency'],
      ['standard_price', 'float', 'Cost', 0],
      ['volume', 'float', 'Volume', 1],
      ['volume_uom_name', 'char', 'Volume unit of measure label', 0],
      ['weight', 'float', 'Weight', 1],
      ['weight_uom_name', 'char', 'Weight unit of measure label', 0],
      ['seller_ids', 'one2many', 'Vendors', 1, 'product.supplierinfo'],
      ['variant_seller_ids', 'one2many', 'Variant Seller', 1, 'product.supplierinfo'],
      ['color', 'integer', 'Color Index', 1],
      ['is_product_variant', 'boolean', 'Is a product variant', 0],
      ['attribute_line_ids', 'one2many', 'Product Attributes', 1, 'product.template.attribute.line'],
      [
        'valid_product_template_attribute_line_ids',
        'many2many',
        'Valid Product Attribute Lines',
        0,
        'product.template.attribute.line',
      ],
      ['product_variant_ids', 'one2many', 'Products', 1, 'product.product'],
      ['product_variant_id', 'many2one', 'Product', 0, 'product.product'],
      ['product_variant_count', 'integer', '# Product Variants', 0],
      ['barcode', 'char', 'Barcode', 0],
      ['product_document_ids', 'one2many', 'Documents', 1, 'product.document'],
      ['product_document_count', 'integer', 'Documents Count', 0],
      ['can_image_1024_be_zoomed', 'boolean', 'Can Image 1024 be zoomed', 1],
      ['has_configurable_attributes', 'boolean', 'Is a configurable product', 1],
      ['product_tooltip', 'char', 'Product Tooltip', 0],
      ['product_properties', 'properties', 'Properties', 1],
      ['tax_string', 'char', 'Tax String', 0],
      ['account_tag_ids', 'many2many', 'Account Tags', 1, 'account.account.tag'],
      ['fiscal_country_codes', 'char', 'Fiscal Country Codes', 0],
      ['sale_delay', 'integer', 'Customer Lead Time', 1],
      ['description_picking', 'text', 'Description on Picking', 1],
      ['description_pickingout', 'text', 'Description on Delivery Orders', 1],
      ['description_pickingin', 'text', 'Description on Receptions', 1],
      ['qty_available', 'float', 'Quantity On Hand', 0],
      ['virtual_available', 'float', 'Forecasted Quantity', 0],
      ['incoming_qty', 'float', 'Incoming', 0],
      ['outgoing_qty', 'float', 'Outgoing', 0],
      ['location_id', 'many2one', 'Location', 0, 'stock.location'],
      ['warehouse_id', 'many2one', 'Warehouse', 0, 'stock.warehouse'],
      ['has_available_route_ids', 'boolean', 'Routes can be selected on this product', 0],
      ['route_ids', 'many2many', 'Routes', 1, 'stock.route'],
      ['nbr_moves_in', 'integer', 'Nbr Moves In', 0],
      ['nbr_moves_out', 'integer', 'Nbr Moves Out', 0],
      ['nbr_reordering_rules', 'integer', 'Reordering Rules', 0],
      ['reordering_min_qty', 'float', 'Reordering Min Qty', 0],
      ['reordering_max_qty', 'float', 'Reordering Max Qty', 0],
      ['route_from_categ_ids', 'many2many', 'Category Routes', 0, 'stock.route'],
      ['show_on_hand_qty_status_button', 'boolean', 'Show On Hand Qty Status Button', 0],
      ['show_forecasted_qty_status_button', 'boolean', 'Show Forecasted Qty Status Button', 0],
      ['to_weight', 'boolean', 'To Weigh With Scale', 1],
    ],
    v17: [
      [
        'detailed_type',
        'selection',
        'Product Type',
        1,
        [
          ['consu', 'Consumable'],
          ['service', 'Service'],
          ['product', 'Storable Product'],
          ['combo', 'Combo'],
        ],
      ],
      [
        'type',
        'selection',
        'Type',
        1,
        [
          ['consu', 'Consumable'],
          ['service', 'Service'],
          ['product', 'Storable Product'],
          ['combo', 'Combo'],
        ],
      ],
      ['sale_ok', 'boolean', 'Can be Sold', 1],
      ['purchase_ok', 'boolean', 'Can be Purchased', 1],
      ['uom_id', 'many2one', 'Unit of Measure', 1, 'uom.uom'],
      ['uom_name', 'char', 'Unit of Measure Name', 0],
      ['uom_po_id', 'many2one', 'Purchase UoM', 1, 'uom.uom'],
      ['packaging_ids', 'one2many', 'Product Packages', 0, 'product.packaging'],
      ['pricelist_item_count', 'integer', 'Number of price rules', 0],
      ['product_tag_ids', 'many2many', 'Product Template Tags', 1, 'product.tag'],
      ['supplier_taxes_id', 'many2many', 'Vendor Taxes', 1, 'account.tax'],
      ['property_account_income_id', 'many2one', 'Income Account', 0, 'account.account'],
      ['property_account_expense_id', 'many2one', 'Expense Account', 0, 'account.account'],
      ['responsible_id', 'many2one', 'Responsible', 0, 'res.users'],
      ['property_stock_production', 'many2one', 'Production Location', 0, 'stock.location'],
      ['property_stock_inventory', 'many2one', 'Inventory Location', 0, 'stock.location'],
      [
        'tracking',
        'selection',
        'Tracking',
        1,
        [
          ['serial', 'By Unique Serial Number'],
          ['lot', 'By Lots'],
          ['none', 'No Tracking'],
        ],
      ],
      [
        'cost_method',
        'selection',
        'Costing Method',
        0,
        [
          ['standard', 'Standard Price'],
          ['fifo', 'First In First Out (FIFO)'],
          ['average', 'Average Cost (AVCO)'],
        ],
      ],
      [
        'valuation',
        'selection',
        'Inventory Valuation',
        0,
        [
          ['manual_periodic', 'Manual'],
          ['real_time', 'Automated'],
        ],
      ],
      ['combo_ids', 'many2many', 'Combinations', 1, 'pos.combo'],
    ],
    v19: [
      [
        'type',
        'selection',
        'Product Type',
        1,
        [
          ['consu', 'Goods'],
          ['service', 'Service'],
          ['combo', 'Combo'],
        ],
      ],
      ['combo_ids', 'many2many', 'Combo Choices', 1, 'product.combo'],
      ['service_tracking', 'selection', 'Create on Order', 1, [['no', 'Nothing']]],
      ['sale_ok', 'boolean', 'Sales', 1],
      ['purchase_ok', 'boolean', 'Purchase', 1],
      ['uom_id', 'many2one', 'Unit', 1, 'uom.uom'],
      ['uom_ids', 'many2many', 'Packagings', 1, 'uom.uom'],
      ['uom_name', 'char', 'Unit Name', 0],
      ['pricelist_rule_ids', 'one2many', 'Pricelist Rules', 1, 'product.pricelist.item'],
      ['is_dynamically_created', 'boolean', 'Is Dynamically Created', 0],
      ['product_tag_ids', 'many2many', 'Tags', 1, 'product.tag'],
      ['supplier_taxes_id', 'many2many', 'Purchase Taxes', 1, 'account.tax'],
      ['property_account_income_id', 'many2one', 'Income Account', 1, 'account.account'],
      ['property_account_expense_id', 'many2one', 'Expense Account', 1, 'account.account'],
      ['is_storable', 'boolean', 'Track Inventory', 1],
      ['responsible_id', 'many2one', 'Responsible', 1, 'res.users'],
      ['property_stock_production', 'many2one', 'Production Location', 1, 'stock.location'],
      ['property_stock_inventory', 'many2one', 'Inventory Location', 1, 'stock.location'],
      [
        'tracking',
        'selection',
        'Tracking',
        1,
        [
          ['serial', 'By Unique Serial Number'],
          ['lot', 'By Lots'],
          ['none', 'By Quantity'],
        ],
      ],
      ['lot_sequence_id', 'many2one', 'Serial/Lot Numbers Sequence', 1, 'ir.sequence'],
      ['serial_prefix_format', 'char', 'Custom Lot/Serial', 0],
      ['next_serial', 'char', 'Next Serial', 0],
      ['show_qty_update_button', 'boolean', 'Show Qty Update Button', 0],
      [
        'cost_method',
        'selection',
        'Cost Method',
        0,
        [
          ['standard', 'Standard Price'],
          ['fifo', 'First In First Out (FIFO)'],
          ['average', 'Average Cost (AVCO)'],
        ],
      ],
      [
        'valuation',
        'selection',
        'Valuation',
        0,
        [
          ['periodic', 'Periodic (at closing)'],
          ['real_time', 'Perpetual (at invoicing)'],
        ],
      ],
      ['lot_valuated', 'boolean', 'Valuation by Lot/Serial', 1],
      ['property_price_difference_account_id', 'many2one', 'Price Difference Account', 1, 'account.account'],
      ['public_description', 'html', 'Product Description', 1],
      ['pos_optional_product_ids', 'many2many', 'POS Optional Products', 1, 'product.template'],
      ['pos_sequence', 'integer', 'POS Sequence', 1],
    ],
  },
  'report.pos.order': {
    both: [
      ['journal_id', 'many2one', 'Journal', 1, 'account.journal'],
      ['delay_validation', 'integer', 'Delay Validation', 1],
      ['pricelist_id', 'many2one', 'Pricelist', 1, 'product.pricelist'],
      ['margin', 'float', 'Margin', 1],
    ],
    v17: [],
    v19: [],
  },
};

/**
 * What fields_get says of an inert field beyond its tuple, where Odoo says anything: `digits`,
 * the `related` path, and `search` where Odoo can search a field it does not store (a search
 * method of its own, or a related field's `_search_related`). Taken from the real 17's
 * fields_get; 16 and 18 take 17's (their point_of_sale sources define these fields alike), 19
 * what its sources show (`v19`), the rest of 19's product fields left undescribed.
 */
export interface Described {
  digits?: [number, number] | 0 | false;
  related?: string;
  search?: boolean;
}
type Descriptions = Record<string, Described>;

/** mail.activity.mixin's: computed with search methods, or related to the activities. */
const ACTIVITIES_DESCRIBED: Descriptions = {
  activity_state: { search: true },
  activity_user_id: { search: true },
  activity_type_id: { related: 'activity_ids.activity_type_id', search: true },
  activity_type_icon: { related: 'activity_ids.icon', search: true },
  activity_date_deadline: { search: true },
  my_activity_date_deadline: { search: true },
  activity_summary: { related: 'activity_ids.summary', search: true },
  activity_exception_decoration: { search: true },
};

/** mail.thread's computed fields with search methods. */
const MAIL_THREAD_DESCRIBED: Descriptions = Object.fromEntries(
  [
    'message_is_follower',
    'message_partner_ids',
    'has_message',
    'message_needaction',
    'message_has_error',
    'message_has_sms_error',
  ].map((f) => [f, { search: true }]),
);

/** Quantities of stock (digits 'Product Unit of Measure'), computed with search methods. */
const STOCK_QTY: Described = { digits: [16, 2], search: true };

const DESCRIBED: Record<string, { both: Descriptions; v17: Descriptions; v19: Descriptions }> = {
  'pos.order': {
    both: {
      ...MAIL_THREAD_DESCRIBED,
      margin_percent: { digits: [12, 4] },
      country_code: { related: 'company_id.account_fiscal_country_id.code', search: true },
      currency_rate: { digits: 0 },
      picking_type_id: { related: 'session_id.config_id.picking_type_id', search: true },
      sale_journal: { related: 'session_id.config_id.journal_id' },
      session_move_id: { related: 'session_id.move_id', search: true },
      next_online_payment_amount: { digits: 0 },
    },
    v17: {},
    v19: {
      order_edit_tracking: { related: 'config_id.order_edit_tracking', search: true },
      available_payment_method_ids: { related: 'config_id.payment_method_ids', search: true },
    },
  },
  'pos.order.line': {
    both: {
      margin_percent: { digits: [12, 4] },
      product_uom_id: { related: 'product_id.uom_id', search: true },
    },
    // digits='Product Price'; 19 gives it only min_display_digits.
    v17: { total_cost: { digits: [16, 2] } },
    v19: { total_cost: { digits: false } },
  },
  'pos.payment': {
    both: {
      currency_rate: { digits: 0, related: 'pos_order_id.currency_rate', search: true },
      partner_id: { related: 'pos_order_id.partner_id', search: true },
    },
    v17: {},
    v19: { user_id: { related: 'session_id.user_id', search: true } },
  },
  'pos.session': { both: { ...ACTIVITIES_DESCRIBED, ...MAIL_THREAD_DESCRIBED }, v17: {}, v19: {} },
  'product.template': {
    both: {
      ...ACTIVITIES_DESCRIBED,
      ...MAIL_THREAD_DESCRIBED,
      image_1024: { related: 'image_1920' },
      image_512: { related: 'image_1920' },
      image_256: { related: 'image_1920' },
      image_128: { related: 'image_1920' },
      barcode: { search: true },
      uom_name: { related: 'uom_id.name', search: true },
    },
    v17: {
      standard_price: { digits: [16, 2], search: true },
      volume: { digits: [16, 2] },
      weight: { digits: [16, 2] },
      qty_available: STOCK_QTY,
      virtual_available: STOCK_QTY,
      incoming_qty: STOCK_QTY,
      outgoing_qty: STOCK_QTY,
      route_from_categ_ids: { related: 'categ_id.total_route_ids' },
      // company_dependent: searchable through their properties.
      property_account_income_id: { search: true },
      property_account_expense_id: { search: true },
      responsible_id: { search: true },
      property_stock_production: { search: true },
      property_stock_inventory: { search: true },
      cost_method: { related: 'categ_id.property_cost_method', search: true },
      valuation: { related: 'categ_id.property_valuation', search: true },
    },
    v19: { standard_price: { digits: false, search: true } },
  },
};

/** What fields_get says of the inert fields of a model on a version, beyond their tuples. */
export function describedFields(model: string, version: OdooVersion): Descriptions {
  const d = DESCRIBED[model];
  if (!d) return {};
  return { ...d.both, ...(version === 19 ? d.v19 : d.v17) };
}

/** The inert fields of a model on a version. */
export function inertFields(model: string, version: OdooVersion): InertField[] {
  const c = CATALOG[model];
  if (!c) return [];
  if (version <= 17) return [...c.both, ...c.v17];
  if (version === 19) return [...c.both, ...c.v19];
  const in17 = new Set(c.v17.map((f) => f[0]));
  return [...c.both, ...c.v19.filter((f) => in17.has(f[0]))];
}
