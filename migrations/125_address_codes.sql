-- A change of address mails the new address, and takes that address's
-- cooldown like every other mail to it: its row of email_codes (purpose
-- 'change') keeps the cooldown only, the change's code stays with the
-- change (email_changes).
ALTER TABLE email_codes DROP CONSTRAINT email_codes_purpose_check;
ALTER TABLE email_codes ADD CONSTRAINT email_codes_purpose_check CHECK (purpose IN ('verify', 'reset', 'change'));

-- Addresses are compared composed (Unicode NFC) from now on: those kept
-- decomposed are composed, unless another account already holds the
-- same address in another form (the operator settles such twins by hand).
UPDATE users u SET email = normalize(u.email, NFC)
 WHERE u.email IS NOT NULL AND u.email IS NOT NFC NORMALIZED
   AND NOT EXISTS (SELECT 1 FROM users o WHERE o.id <> u.id AND normalize(o.email, NFC) = normalize(u.email, NFC));
UPDATE email_changes SET new_email = normalize(new_email, NFC) WHERE new_email IS NOT NFC NORMALIZED;
