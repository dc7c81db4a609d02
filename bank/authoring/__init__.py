"""Leads bring questions: uploaded files previewed before import, and one question at a time."""
