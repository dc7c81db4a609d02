-- A paper's subject (梯度累积, 专家并行, …): what the whole paper is about, carried by every export
-- format that can (docs/import-export.md). '' when none is known. The bundled papers get theirs here
-- (a fresh install reads them from bank/seeds/subjects.json when it imports the bundled bank).
ALTER TABLE papers ADD COLUMN subject TEXT NOT NULL DEFAULT '';
UPDATE papers SET subject = CASE slug
    WHEN '000_55527286228126e4' THEN '梯度累积'
    WHEN '001_c9ee6912cd06a1b6' THEN '专家并行'
    WHEN '002_692116d27c950d45' THEN '混合精度数值稳定性'
    WHEN '003_47de9a3d709cea96' THEN '推理优化'
    WHEN '004_ad5bfb426744f568' THEN '优化器'
END
WHERE slug IN ('000_55527286228126e4', '001_c9ee6912cd06a1b6', '002_692116d27c950d45',
               '003_47de9a3d709cea96', '004_ad5bfb426744f568');

-- A file may give a paper its code (an export of another database: P3 stays P3 where P3 is free), so
-- the code a new paper is given is the first free one from P<id> on, not P<id> itself, which a
-- file's paper may hold already.
DROP TRIGGER papers_code_given;
CREATE TRIGGER papers_code_given AFTER INSERT ON papers WHEN NEW.code IS NULL
BEGIN
  UPDATE papers SET code = 'P' || (
    SELECT MIN(n) FROM (
      SELECT NEW.id AS n
      UNION SELECT CAST(substr(code, 2) AS INTEGER) + 1 FROM papers
            WHERE code GLOB 'P[0-9]*' AND CAST(substr(code, 2) AS INTEGER) >= NEW.id)
    WHERE NOT EXISTS (SELECT 1 FROM papers taken WHERE taken.code = 'P' || n))
  WHERE id = NEW.id;
END;
