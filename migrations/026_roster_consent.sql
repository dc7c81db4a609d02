-- A roster takes the member's consent (issue 21). Until now a lead's `/team add` put anyone the bot
-- had seen on the roster, and its leads saw all their answers. Now a member joins when both sides
-- agreed (their /join accepted by a lead, or a lead's invitation accepted by them in private) while
-- in the group; the leads see what they do from then on, and nothing while they are out of the group.
-- proctor/teams/roster.py writes these columns; proctor/teams/consent.py is the rule that reads them.
ALTER TABLE team_roster ADD COLUMN joined_at REAL;   -- when both had agreed; NULL: not joined yet
ALTER TABLE team_roster ADD COLUMN left_at REAL;     -- when getChatMember said they were out of the group
ALTER TABLE team_roster ADD COLUMN checked_at REAL;  -- when getChatMember last answered for them

-- Today's members. One who asked (/join) consented: a request the lead decided later than it was
-- made, or one a lead accepted (roster_accept in the audit log), joined when the lead decided.
-- One a lead added with /team add never agreed: the row is kept, marked by joined_at NULL (an
-- invitation waiting for them), and the leads see nothing of theirs until they accept.
UPDATE team_roster SET joined_at = decided_at
 WHERE status = 'member' AND decided_at IS NOT NULL
   AND (decided_at > requested_at
        OR EXISTS (SELECT 1 FROM audit_log a WHERE a.action = 'roster_accept'
                   AND a.chat_id = team_roster.chat_id AND a.target_user = team_roster.user_id));
