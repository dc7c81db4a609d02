-- The order a dispute's question was shown in to the person who raised it (bank.option_order's
-- OptionOrder.order: 'CADB', '' for the bank's order), so a lead reads its key and fixes it in the
-- letters the disputer saw. NULL: raised before it was kept; its letters are the bank's.
ALTER TABLE disputes ADD COLUMN option_order TEXT;
